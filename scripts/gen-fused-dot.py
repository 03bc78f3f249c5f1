#!/usr/bin/env python3
"""Writes hoist-ring/src/main/java/io/hoist/ring/FusedDotKernels.java: the key inner products with their
sums in registers, one straight-line method per number of terms (1..MAX_TERMS), in FMA and integer lanes.

Why generated: a helper that takes or returns vectors boxes them wherever C2 does not inline it, and a loop
over the terms inside the loop over coefficients deoptimised at its loop head (docs/benchmarks.md, thirty-
second and thirty-third sessions). So each method names its terms' limbs before its one loop, and the
products are written out term by term. Run from the repository root, then `mvn spotless:apply -pl hoist-ring`:

    python3 scripts/gen-fused-dot.py
"""
import os

MAX_TERMS = 6
OUT = "hoist-ring/src/main/java/io/hoist/ring/FusedDotKernels.java"


def reduce_once(v, q):
    """v in [0, 2q) to [0, q), in the form every kernel of VectorLimbKernels uses."""
    return (f"(VectorLimbKernels.WIDE ? {v}.lanewise(VectorOperators.UMIN, {v}.sub({q}))"
            f" : {v}.sub({q}).blend({v}, {v}.sub({q}).compare(VectorOperators.LT, 0L)))")


def finish(o, q):
    """Output o's last lines: the previous output added when accumulating, then the store."""
    return [
        f"if (accumulate) {{ u{o} = LongVector.fromArray(S, out{o}, k).add(u{o}); u{o} = {reduce_once(f'u{o}', q)}; }}",
        f"u{o}.intoArray(out{o}, k);",
    ]


def method(name, last, consts, terms, body):
    """One straight-line method: its constants, its terms' limbs named before the one loop over coefficients."""
    return f"""
    private static void {name}(
            long[][] x, long[][] y, long[][] z, long[] out0, long[] out1, long q, long {last}, boolean accumulate, int len) {{
        {(chr(10) + '        ').join(consts)}
        {limbs(terms)}
        for (int k = 0; k < len; k += L) {{
            {(chr(10) + '            ').join(body)}
        }}
    }}
"""


def limbs(terms):
    return "final long[] " + ", ".join(f"x{t} = x[{t}], y{t} = y[{t}], z{t} = z[{t}]" for t in range(terms)) + ";"


def as_double(arr, name):
    return (f"DoubleVector {name} = LongVector.fromArray(S, {arr}, k).or(bits52).reinterpretAsDoubles()"
            f".sub(two52);")


def fma_method(terms):
    body = []
    for t in range(terms):
        body.append(as_double(f"x{t}", f"a{t}"))
        for o, arr, name in (("0", f"y{t}", "b"), ("1", f"z{t}", "c")):
            body.append(as_double(arr, f"{name}{t}"))
            h = f"h{o}{t}"
            body.append(f"DoubleVector {h} = a{t}.mul({name}{t});")
            rem = f"{h}.fma(qinv, round).sub(round).fma(nq, {h}).add(a{t}.fma({name}{t}, {h}.neg()))"
            body.append(f"DoubleVector s{o} = {rem};" if t == 0 else f"s{o} = s{o}.add({rem});")
    for o in ("0", "1"):
        body += [
            f"s{o} = s{o}.fma(qinv, round).sub(round).fma(nq, s{o});",
            f"DoubleVector e{o} = s{o}.mul(ri);",
            f"DoubleVector r{o} = e{o}.fma(qinv, round).sub(round).fma(nq, e{o}).add(s{o}.fma(ri, e{o}.neg()));",
            f"r{o} = r{o}.add(vq, r{o}.compare(VectorOperators.LT, zero));",
            f"LongVector u{o} = r{o}.add(two52).reinterpretAsLongs().sub(bits52);",
        ] + finish(o, "lq")
    return method(f"fma{terms}", "rInv", [
        "final DoubleVector vq = DoubleVector.broadcast(D, (double) q), nq = vq.neg();",
        "final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);",
        "final DoubleVector two52 = DoubleVector.broadcast(D, TWO52), zero = DoubleVector.zero(D);",
        "final DoubleVector ri = DoubleVector.broadcast(D, (double) rInv);",
        "final LongVector bits52 = LongVector.broadcast(S, BITS52), lq = LongVector.broadcast(S, q);",
    ], terms, body)


def integer_method(terms):
    body = []
    for t in range(terms):
        body.append(f"LongVector a{t} = LongVector.fromArray(S, x{t}, k);")
        body.append(f"LongVector al{t} = a{t}.and(M32), ah{t} = a{t}.lanewise(VectorOperators.LSHR, 32);")
        for o, arr, name in (("0", f"y{t}", "b"), ("1", f"z{t}", "c")):
            v = f"{name}{t}"
            body += [
                f"LongVector {v} = LongVector.fromArray(S, {arr}, k);",
                f"LongVector {v}l = {v}.and(M32), {v}h = {v}.lanewise(VectorOperators.LSHR, 32);",
                f"LongVector ll{v} = al{t}.mul({v}l), cross{v} = al{t}.mul({v}h).add(ah{t}.mul({v}l));",
                f"LongVector lo{v} = ll{v}.add(cross{v}.lanewise(VectorOperators.LSHL, 32));",
                f"LongVector hi{v} = ah{t}.mul({v}h).add(cross{v}.lanewise(VectorOperators.LSHR, 32))"
                f".add(one, lo{v}.compare(VectorOperators.ULT, ll{v}));",
            ]
            if t == 0:
                body.append(f"LongVector lo{o} = lo{v}, hi{o} = hi{v};")
            else:
                body += [
                    f"lo{o} = lo{o}.add(lo{v});",
                    f"hi{o} = hi{o}.add(hi{v}).add(one, lo{o}.compare(VectorOperators.ULT, lo{v}));",
                ]
    for o in ("0", "1"):
        body += [
            f"LongVector m{o} = (VectorLimbKernels.WIDE ? lo{o}.mul(vni) : lo{o}.and(M32).mul(nil)"
            f".add(lo{o}.and(M32).mul(nih).add(lo{o}.lanewise(VectorOperators.LSHR, 32).mul(nil))"
            f".lanewise(VectorOperators.LSHL, 32)));",
            f"LongVector ml{o} = m{o}.and(M32), mh{o} = m{o}.lanewise(VectorOperators.LSHR, 32);",
            f"LongVector qll{o} = ml{o}.mul(ql), qlh{o} = ml{o}.mul(qh), qhl{o} = mh{o}.mul(ql), qhh{o} = mh{o}.mul(qh);",
            f"LongVector mid{o} = qll{o}.lanewise(VectorOperators.LSHR, 32).add(qlh{o}.and(M32)).add(qhl{o}.and(M32));",
            f"LongVector u{o} = hi{o}.add(qhh{o}).add(qlh{o}.lanewise(VectorOperators.LSHR, 32))"
            f".add(qhl{o}.lanewise(VectorOperators.LSHR, 32)).add(mid{o}.lanewise(VectorOperators.LSHR, 32))"
            f".add(one, lo{o}.compare(VectorOperators.NE, 0));",
            f"u{o} = {reduce_once(f'u{o}', 'vq')};",
        ] + finish(o, "vq")
    return method(f"integer{terms}", "ni", [
        "final LongVector vq = LongVector.broadcast(S, q), vni = LongVector.broadcast(S, ni);",
        "final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);",
        "final LongVector nil = vni.and(M32), nih = vni.lanewise(VectorOperators.LSHR, 32);",
        "final LongVector one = LongVector.broadcast(S, 1);",
    ], terms, body)


def dispatcher(kind, last):
    cases = "\n".join(
        f"            case {t} -> {kind}{t}(x, y, z, out0, out1, q, {last}, accumulate, len);" for t in range(1, MAX_TERMS + 1))
    return cases


header = f'''package io.hoist.ring;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {{@link LimbKernels#dot2Montgomery}}'s two outputs with their sums in registers: for each vector of
 * coefficients, every term's products are summed and reduced before the next vector, so each operand streams
 * once and no row of sums is stored and loaded per term (the blocked kernels' rows cost more than their
 * arithmetic once the operands come from memory, as a key's do). The FMA form takes the exact remainders of
 * {{@link FmaDotKernels}}, the integer form the 128-bit sums and Montgomery reduction of {{@link
 * VectorDotKernels}}: the same residues, bit for bit. One straight-line method per number of terms, up to
 * {{@link #MAX_TERMS}}; more terms take the blocked kernels.
 *
 * <p>Generated by {{@code scripts/gen-fused-dot.py}} (then formatted): edit the script, not this file.
 */
final class FusedDotKernels {{
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    static final int L = S.length();
    private static final long M32 = 0xFFFF_FFFFL;
    private static final long BITS52 = FmaDotKernels.BITS52;
    private static final double TWO52 = FmaDotKernels.TWO52, ROUND = FmaDotKernels.ROUND;

    /** The most terms a fused method sums (a key inner product's digits in every shipped preset: at most 6). */
    static final int MAX_TERMS = {MAX_TERMS};

    private FusedDotKernels() {{}}

    /** Whether {{@link #fma}} sums {{@code terms}} remainders mod q exactly (each below 0.75q + 1, the sum below 2^53). */
    static boolean fmaTakes(int terms, long q) {{
        return terms >= 1 && terms <= MAX_TERMS && FmaDotKernels.accepts(q) && terms <= FmaDotKernels.chunk(q);
    }}

    /** Whether {{@link #integer}}'s 128-bit sum of {{@code terms}} products stays below q·2^64. */
    static boolean integerTakes(int terms, long q) {{
        return terms >= 1 && terms <= MAX_TERMS && terms <= LimbKernels.montgomeryTerms(q);
    }}

    /**
     * out0[k] (+)= Σ_t x_t[k]·y_t[k]·2^-64 and out1[k] (+)= Σ_t x_t[k]·z_t[k]·2^-64 mod q for k &lt; len (a
     * multiple of the lane count), in FMA lanes; {{@code rInv}} = 2^-64 mod q. {{@link #fmaTakes}} must hold.
     */
    static void fma(
            long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q, long rInv,
            boolean accumulate, int len) {{
        switch (terms) {{
{dispatcher("fma", "rInv")}
            default -> throw new IllegalArgumentException(terms + " terms: fused forms take 1 to " + MAX_TERMS);
        }}
    }}

    /** {{@link #fma}} in integer lanes, {{@code ni}} = −q^-1 mod 2^64. {{@link #integerTakes}} must hold. */
    static void integer(
            long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q, long ni,
            boolean accumulate, int len) {{
        switch (terms) {{
{dispatcher("integer", "ni")}
            default -> throw new IllegalArgumentException(terms + " terms: fused forms take 1 to " + MAX_TERMS);
        }}
    }}
'''

src = header
for t in range(1, MAX_TERMS + 1):
    src += fma_method(t)
for t in range(1, MAX_TERMS + 1):
    src += integer_method(t)
src += "}\n"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(root, OUT), "w") as f:
    f.write(src)
