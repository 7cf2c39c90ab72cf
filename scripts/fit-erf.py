#!/usr/bin/python3
"""Fits the rational erf of aclop-approximate-math (ErfAsRational in ApproximateMath.cpp).

erf(x) ~ x * P(x^2) / Q(x^2) on (0, 3.925], P of degree 6 and Q of degree 5 with Q(0) = 1, by
Lawson's iteratively reweighted least squares on the relative error, then checks the f32
coefficients in f32 arithmetic (FMA Horner, as the pass evaluates them) against math.erf on
[-5, 5] and tiny arguments. Needs numpy (Debian's python3-numpy)."""
import math

import numpy as np

CLAMP = 3.925


def fit(numerator_degree=6, denominator_degree=5, iterations=400, points=6000):
    k = np.arange(points)
    x = CLAMP * (1 - np.cos(np.pi * (k + 0.5) / points)) / 2 + 1e-6
    x = np.sort(np.concatenate([x, np.linspace(1e-4, CLAMP, points)]))
    e = np.array([math.erf(v) for v in x])
    t = x * x
    a = np.hstack([np.stack([x * t**i for i in range(numerator_degree + 1)], 1),
                   np.stack([-e * t**i for i in range(1, denominator_degree + 1)], 1)])
    weights, q_before, best = np.ones_like(x), np.ones_like(x), None
    for _ in range(iterations):
        scale = weights / (e * q_before)
        solution, *_ = np.linalg.lstsq(a * scale[:, None], e * scale, rcond=None)
        p = solution[:numerator_degree + 1]
        q = np.concatenate([[1.0], solution[numerator_degree + 1:]])
        q_before = sum(q[i] * t**i for i in range(len(q)))
        relative = (x * sum(p[i] * t**i for i in range(len(p))) / q_before - e) / e
        worst = np.max(np.abs(relative))
        if best is None or worst < best[0]:
            best = (worst, p, q)
        weights = weights * np.abs(relative)
        weights /= weights.sum()
    return best


def erf_f32(x, p, q):
    f32 = np.float32
    fma = lambda a, b, c: f32(np.float64(a) * np.float64(b) + np.float64(c))  # exact product, one rounding
    a = f32(min(abs(f32(x)), f32(CLAMP)))
    t = f32(a * a)
    numerator, denominator = p[-1], q[-1]
    for c in reversed(p[:-1]):
        numerator = fma(numerator, t, c)
    for c in reversed(q[:-1]):
        denominator = fma(denominator, t, c)
    return math.copysign(min(float(f32(f32(a * numerator) / denominator)), 1.0), x)


def main():
    worst, p, q = fit()
    print(f"relative error in exact arithmetic: {worst:.3g}")
    p32, q32 = [np.float32(c) for c in p], [np.float32(c) for c in q]
    arguments = np.concatenate([np.linspace(-5, 5, 200001), 2.0 ** -np.arange(1, 126, 0.37)]).astype(np.float32)
    ulps = max(abs(erf_f32(v, p32, q32) - math.erf(float(v))) / math.ldexp(1.0, math.frexp(math.erf(float(v)))[1] - 24)
               for v in arguments if v != 0)
    print(f"f32 arithmetic: at most {ulps:.2f} ulp on [-5, 5] and tiny arguments")
    print("numerator:", ", ".join(repr(float(c)) for c in p32))
    print("denominator:", ", ".join(repr(float(c)) for c in q32))


if __name__ == "__main__":
    main()
