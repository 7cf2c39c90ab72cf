#!/usr/bin/env python3
"""Checks that libascendcl.so exports every function the public headers declare, and nothing
that is not an ACL function (no leaked C++ symbols) but MLIR's TypeID statics, which must be
exported to be one per process with libMLIR's (runtime/libascendcl.map)."""
import pathlib
import re
import subprocess
import sys

include_dir, library = pathlib.Path(sys.argv[1]), sys.argv[2]
declared = set()
for header in include_dir.rglob("*.h"):
    text = re.sub(r"/\*.*?\*/", "", header.read_text(), flags=re.S)
    declared |= set(re.findall(r"ACL_FUNC_VISIBILITY\s+[\w\s\*]*?\b(acl\w+)\s*\(", text))
nm = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True, text=True)
symbols = [line.split() for line in nm.stdout.splitlines()]
exported = {fields[-1] for fields in symbols if fields[-2] == "T"}
type_ids = ("_ZZN4mlir6detail14TypeIDResolver", "_ZGVZN4mlir6detail14TypeIDResolver")
leaked = sorted(fields[-1] for fields in symbols if fields[-2] != "T" and not fields[-1].startswith(type_ids))
missing = sorted(declared - exported)
extra = sorted(name for name in exported - declared if not name.startswith(("_init", "_fini")))
print(f"{len(declared)} functions declared, {len(exported)} exported")
if missing:
    print("declared but not exported:", *missing, sep="\n  ")
if extra:
    print("exported but not declared:", *extra, sep="\n  ")
if leaked:
    print("data exported that is not a TypeID:", *leaked, sep="\n  ")
sys.exit(1 if missing or extra or leaked or len(declared) < 100 else 0)
