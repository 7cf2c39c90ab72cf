#!/usr/bin/env python3
"""Checks that libascendcl.so exports every function the public headers declare, and nothing
that is not an ACL function (no leaked C++ symbols)."""
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
exported = {line.split()[-1] for line in nm.stdout.splitlines() if " T " in line}
missing = sorted(declared - exported)
extra = sorted(name for name in exported - declared if not name.startswith(("_init", "_fini")))
print(f"{len(declared)} functions declared, {len(exported)} exported")
if missing:
    print("declared but not exported:", *missing, sep="\n  ")
if extra:
    print("exported but not declared:", *extra, sep="\n  ")
sys.exit(1 if missing or extra or len(declared) < 100 else 0)
