#!/usr/bin/env python3
"""Make lossless WebP fixtures whose prefix codes have the shape of CVE-2023-4863, with legal
controls, and their manifest from the reference decoder.

  python3 Conformance/scripts/make_webp_cve_fixtures.py

Writes Conformance/fixtures/webp-cve/*.webp, RECIPES.tsv beside them, and
manifests/fixtures-webp-cve.tsv (dwebp -pam, made canonical by make_webp_manifests.py's functions:
the same columns as fixtures-webp.tsv; a file dwebp refuses is an `error` row).

Every file is a RIFF/WEBP file with one VP8L chunk written bit by bit here (RFC 9649 section 3):
header, no transform, an optional colour cache, an optional meta prefix code (entropy image),
then per prefix code group the five codes (green + length + cache, red, blue, alpha, distance).
The code under test is a normal code (section 3.7.2.1.2): a code length code over the lengths
that occur, then every length written as a literal code length symbol (0...15).

CVE-2023-4863: libwebp before 1.3.2 (src/utils/huffman_utils.c, BuildHuffmanTable) filled a
code's second-level tables, each sized by NextTableBitSize from the counts of the lengths still
to place, before it checked that the code was complete; the tables of a group lived in one
buffer of kTableSize[colour cache bits] entries (src/dec/vp8l_dec.c: 630 per red, blue and
alpha code, 410 for distance, 654...2704 for green), the largest a complete code can need. An
incomplete code can need more: the `cve-` files hold one whose tables, filled that way, exceed
its code's share (the note gives both numbers), after codes that take their largest legal size,
so that old libwebp wrote past the end of the buffer. The fix (libwebp 1.3.2, in Debian's 1.2.4
as deb12u1) sizes and checks the code before it fills anything; dwebp refuses these files.

Needs: dwebp (apt: webp). Deterministic.
"""

import shutil
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_webp_manifests import frame_manifest  # noqa: E402
from manifest_common import CONF, MANIFESTS, files_under  # noqa: E402

OUT = CONF / "fixtures" / "webp-cve"
CODE_LENGTH_CODE_ORDER = (17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
MAX_LENGTH = 15
ROOT_BITS = 8   # libwebp's HUFFMAN_TABLE_BITS
PREFIX_BITS = 2  # entropy image blocks of 4x4 pixels
OLD_SHARE = {"green": (654, 656, 658, 662, 670, 686, 718, 782, 912, 1168, 1680, 2704),
             "red": 630, "blue": 630, "alpha": 630, "distance": 410}
CODES = ("green", "red", "blue", "alpha", "distance")


def alphabet_size(code, cache_bits):
    """RFC 9649 3.7.2.2: 256 literals + 24 lengths + the colour cache for green; 40 distances."""
    if code == "green":
        return 256 + 24 + ((1 << cache_bits) if cache_bits else 0)
    return 40 if code == "distance" else 256


class BitWriter:
    """Bits least significant first (RFC 9649 ReadBits order)."""

    def __init__(self):
        self.value, self.count = 0, 0

    def bits(self, value, n):
        self.value |= (value & ((1 << n) - 1)) << self.count
        self.count += n

    def code(self, code, length):
        """A prefix code, its first (most significant) bit first."""
        for i in range(length - 1, -1, -1):
            self.bits(code >> i, 1)

    def payload(self, padding=16):
        """The bytes written, then `padding` zero bytes (so a refusal is never for lack of data)."""
        return self.value.to_bytes((self.count + 7) // 8, "little") + bytes(padding)


# --------------------------------------------------------------------------
# Prefix codes

def canonical_codes(lengths):
    """{symbol: (code, length)} of the canonical code of `lengths` (RFC 9649 3.7.2.1.2, as DEFLATE).
    Over-subscribed or incomplete lengths give codes too; only legal codes are used to write data."""
    codes, code = {}, 0
    for length in range(1, MAX_LENGTH + 1):
        for symbol, n in enumerate(lengths):
            if n == length:
                codes[symbol] = (code, length)
                code += 1
        code <<= 1
    return codes


def complete_lengths(count):
    """Lengths of a complete code of `count` (2...16) symbols, at most 4 bits (a code length code)."""
    depth = max(1, (count - 1).bit_length())
    short = (1 << depth) - count
    return [depth - 1] * short + [depth] * (count - short)


def write_normal_code(w, lengths):
    """RFC 9649 3.7.2.1.2: a normal code whose symbol lengths are `lengths` (any values 0...15,
    legal or not), each written as a literal code length symbol."""
    used = sorted(set(lengths) | {0, 1})
    cl_lengths = dict(zip(used, complete_lengths(len(used))))
    stored = [cl_lengths.get(s, 0) for s in CODE_LENGTH_CODE_ORDER]
    count = max([4] + [i + 1 for i, n in enumerate(stored) if n])
    w.bits(0, 1)                  # normal code
    w.bits(count - 4, 4)
    for n in stored[:count]:
        w.bits(n, 3)
    w.bits(0, 1)                  # no max_symbol: every length is coded
    cl_codes = canonical_codes([cl_lengths.get(s, 0) for s in range(19)])
    for n in lengths:
        w.code(*cl_codes[n])


def write_simple_code(w, symbol):
    """RFC 9649 3.7.2.1.1: a simple code of one 8-bit symbol (coded with zero bits)."""
    w.bits(1, 1)
    w.bits(0, 1)                  # one symbol
    w.bits(1, 1)                  # 8 bits
    w.bits(symbol, 8)


def lengths_from_counts(size, counts, symbols):
    """An alphabet of `size` lengths: counts[n] symbols of length n, taken in order from `symbols`."""
    lengths, it = [0] * size, iter(symbols)
    for n, c in enumerate(counts):
        for _ in range(c):
            lengths[next(it)] = n
    return lengths


def old_libwebp_fill(lengths):
    """How many table entries libwebp before 1.3.2 wrote for `lengths` before it refused or
    accepted them (its BuildHuffmanTable, root 8 bits; second-level tables sized from the counts
    still to place), and whether the code is complete."""
    count = [0] * (MAX_LENGTH + 1)
    for n in lengths:
        count[n] += 1
    if sum(count[1:]) <= 1:
        return 1 << ROOT_BITS, sum(count[1:]) == 1
    total, low, key, open_ = 1 << ROOT_BITS, None, 0, 1
    for n in range(1, MAX_LENGTH + 1):
        open_ = 2 * open_ - count[n]
        if open_ < 0:
            return total, False          # over-subscribed: refused at this length
        while count[n]:
            if n > ROOT_BITS and key & 0xFF != low:
                low, depth, left = key & 0xFF, n, 1 << (n - ROOT_BITS)
                while depth < MAX_LENGTH:
                    left -= count[depth]
                    if left <= 0:
                        break
                    depth, left = depth + 1, left << 1
                total += 1 << (depth - ROOT_BITS)
            step = 1 << (n - 1)          # the next reversed code (GetNextKey)
            while key & step:
                step >>= 1
            key = (key & (step - 1)) + step if step else key
            count[n] -= 1
    return total, open_ == 0


# --------------------------------------------------------------------------
# Code shapes: counts of lengths 0...15 (index = length)

def counts(**by_length):
    """counts(l9=3, l15=2) -> [0, ..., 3, ..., 2] indexed by length."""
    out = [0] * (MAX_LENGTH + 1)
    for key, c in by_length.items():
        out[int(key[1:])] = c
    return out


# Complete codes of the largest table size for root 8 (kTableSize's numbers, from zlib's enough.c),
# found by a search over length counts with old_libwebp_fill: green 280 symbols -> 654,
# red/blue/alpha 256 -> 630, distance 39 of 40 -> 410.
LARGEST = {
    "green": counts(l1=1, l3=1, l9=123, l10=125, l11=25, l12=1, l13=1, l14=1, l15=2),
    "red": counts(l1=1, l3=1, l9=151, l10=65, l11=33, l12=1, l13=1, l14=1, l15=2),
    "distance": counts(l1=1, l2=1, l3=1, l4=1, l5=1, l9=7, l10=13, l11=9, l12=1, l13=1, l14=1, l15=2),
}
LARGEST["blue"] = LARGEST["alpha"] = LARGEST["red"]

# Incomplete codes whose tables, filled before the completeness check, exceed the code's share.
CVE = {
    # The distance code of the public write-ups of the bug (five short codes, then 35 of 9...15
    # bits over the last 8 root entries): 414 entries, 4 more than 410.
    "distance-writeup": counts(l1=1, l2=1, l3=1, l4=1, l5=1, l9=11, l10=5, l11=1, l12=10, l13=4, l14=2, l15=2),
    # Found by the same search, the most for 40 symbols: 542.
    "distance": counts(l7=1, l9=19, l10=13, l11=1, l12=1, l13=1, l14=1, l15=3),
    # 256 symbols: 758 entries (share 630).
    "red": counts(l8=1, l9=119, l10=81, l11=49, l12=1, l13=1, l14=1, l15=3),
    # Green with an 11-bit colour cache (2328 symbols): one each of 9...14 bits, 2322 of 15 bits
    # over 20 root entries: 2816 entries (share 2704).
    "green-cache11": counts(l9=1, l10=1, l11=1, l12=1, l13=1, l14=1, l15=2322),
}


def spread(size, count):
    """`count` symbols evenly spread over an alphabet of `size`."""
    return [i * size // count for i in range(count)]


def shaped(code, shape, cache_bits=0):
    """A code with the length counts `shape`, its symbols spread over the alphabet."""
    size = alphabet_size(code, cache_bits)
    return ("lengths", lengths_from_counts(size, shape, spread(size, sum(shape))))


def largest_group():
    """Five complete codes, each of the largest table size for its alphabet."""
    return {code: shaped(code, LARGEST[code]) for code in CODES}


def literal_group(a, r, g, b):
    """Every pixel (a, r, g, b): five simple codes of one symbol (zero bits each)."""
    return {"green": ("simple", g), "red": ("simple", r), "blue": ("simple", b), "alpha": ("simple", a),
            "distance": ("simple", 0)}


# --------------------------------------------------------------------------
# VP8L image stream

def write_code(w, spec):
    kind, value = spec
    if kind == "simple":
        write_simple_code(w, value)
    else:
        write_normal_code(w, value)


def symbol_code(spec, symbol):
    """(code, length) of `symbol` in a legal code; a code of one symbol takes zero bits."""
    kind, value = spec
    if kind == "simple":
        assert symbol == value
        return 0, 0
    if sum(1 for n in value if n) == 1:
        assert value[symbol]
        return 0, 0
    return canonical_codes(value)[symbol]


def write_pixels(w, groups, group_of, argb):
    """RFC 9649 5.2.2: every pixel as literal green, red, blue, alpha symbols of its group."""
    for i, (a, r, g, b) in enumerate(argb):
        group = groups[group_of(i)]
        for code, value in (("green", g), ("red", r), ("blue", b), ("alpha", a)):
            w.code(*symbol_code(group[code], value))


def vp8l_file(width, height, groups, argb=None, cache_bits=0):
    """A RIFF/WEBP file of one VP8L chunk. Two `groups` go through an entropy image (green: the
    group) whose block (bx, by) uses group (bx + by) % 2. `argb`: the pixels (literals), or None
    to stop after the codes (a file that must be refused there)."""
    assert len(groups) <= 2
    w = BitWriter()
    w.bits(0x2F, 8)
    w.bits(width - 1, 14)
    w.bits(height - 1, 14)
    w.bits(0, 1)                  # alpha hint
    w.bits(0, 3)                  # version
    w.bits(0, 1)                  # no transform
    w.bits(1 if cache_bits else 0, 1)
    if cache_bits:
        w.bits(cache_bits, 4)
    group_of = lambda i: 0  # noqa: E731
    w.bits(1 if len(groups) > 1 else 0, 1)
    if len(groups) > 1:
        bw, bh = -(-width >> PREFIX_BITS), -(-height >> PREFIX_BITS)
        blocks = [(bx + by) % len(groups) for by in range(bh) for bx in range(bw)]
        w.bits(PREFIX_BITS - 2, 3)
        w.bits(0, 1)              # the entropy image has no colour cache
        entropy = {code: ("simple", 0) for code in CODES}
        entropy["green"] = ("lengths", [1 if s < len(groups) else 0 for s in range(280)])
        for code in CODES:
            write_code(w, entropy[code])
        write_pixels(w, [entropy], lambda i: 0, [(0, 0, g, 0) for g in blocks])
        group_of = lambda i: blocks[(i // width >> PREFIX_BITS) * bw + (i % width >> PREFIX_BITS)]  # noqa: E731
    for group in groups:
        for code in CODES:
            write_code(w, group[code])
    if argb is not None:
        write_pixels(w, groups, group_of, argb)
    payload = w.payload()
    chunk = b"VP8L" + len(payload).to_bytes(4, "little") + payload + b"\0" * (len(payload) & 1)
    return b"RIFF" + (4 + len(chunk)).to_bytes(4, "little") + b"WEBP" + chunk


# --------------------------------------------------------------------------
# The fixtures

def one_symbol(code, symbol, length):
    """A normal code in which `symbol` alone has a (non-zero) length: legal, read with zero bits."""
    lengths = [0] * alphabet_size(code, 0)
    lengths[symbol] = length
    return ("lengths", lengths)


def green_lengths(pairs, cache_bits=0):
    """Green code lengths from (symbol, length) pairs."""
    lengths = [0] * alphabet_size("green", cache_bits)
    for symbol, n in pairs:
        lengths[symbol] = n
    return ("lengths", lengths)


DEEP_SYMBOLS = [16 * i for i in range(16)]
DEEP_CHAIN = list(zip(DEEP_SYMBOLS, list(range(1, 15)) + [15, 15]))   # complete: 1, 2, ..., 14, 15, 15


def with_code(group, code, spec):
    """`group` with `code` replaced by `spec`."""
    out = dict(group)
    out[code] = spec
    return out


def checker_pixels(width, height):
    """Pixels for two groups, (bx + by) % 2: group 0 one literal colour, group 1 cycling through
    every symbol of the complete deep green code."""
    out = []
    for i in range(width * height):
        x, y = i % width, i // width
        if ((x >> PREFIX_BITS) + (y >> PREFIX_BITS)) % 2 == 0:
            out.append((255, 200, 90, 30))
        else:
            out.append((255, 0, DEEP_SYMBOLS[i % 16], 0))
    return out


def fixtures():
    """{name: (file bytes, recipe)}"""
    plain = literal_group(255, 0, 0, 0)
    deep = with_code(plain, "green", green_lengths(DEEP_CHAIN))
    singles = {"green": one_symbol("green", 0x40, 1), "red": one_symbol("red", 0xC0, 1),
               "blue": one_symbol("blue", 0x20, 1), "alpha": one_symbol("alpha", 0xFF, 1),
               "distance": one_symbol("distance", 0, 1)}
    long_singles = dict(singles, green=one_symbol("green", 0x40, 15), red=one_symbol("red", 0xC0, 7))
    over_deep = green_lengths(DEEP_CHAIN + [(250, 15)])
    largest = largest_group()
    return {
        "legal-one-symbol-codes-4x4": fixture(
            "control: all five codes normal, each with one symbol of length 1 (read with zero bits)",
            4, 4, [singles], [(255, 0xC0, 0x40, 0x20)] * 16),
        "legal-one-symbol-length15-4x4": fixture(
            "control: green's only symbol has length 15, red's length 7 (a lone symbol is legal at any length)",
            4, 4, [long_singles], [(255, 0xC0, 0x40, 0x20)] * 16),
        "legal-complete-deep-4x4": fixture(
            "control: green a complete code of lengths 1, 2, ..., 14, 15, 15; every symbol used once",
            4, 4, [deep], [(255, 0, s, 0) for s in DEEP_SYMBOLS]),
        "legal-meta-two-groups-8x8": fixture(
            "control: entropy image 2x2 (prefix bits 2), group 0 one literal, group 1 the complete deep green",
            8, 8, [literal_group(255, 200, 90, 30), deep], checker_pixels(8, 8)),
        "cve-distance-writeup-after-largest-codes": fixture(
            "CVE-2023-4863: green, red, blue, alpha complete codes of the largest table size, then an "
            "incomplete distance code with the length counts of the public write-ups",
            4, 4, [with_code(largest, "distance", shaped("distance", CVE["distance-writeup"]))]),
        "cve-red-after-largest-green": fixture(
            "CVE-2023-4863 shape in red: green complete of the largest size, red incomplete (256 symbols)",
            4, 4, [with_code(with_code(plain, "green", largest["green"]), "red", shaped("red", CVE["red"]))]),
        "cve-green-cache11": fixture(
            "CVE-2023-4863 shape in green with an 11-bit colour cache (2328 symbols): incomplete, "
            "one each of 9...14 bits and 2322 of 15 bits",
            4, 4, [with_code(plain, "green", shaped("green", CVE["green-cache11"], 11))], cache_bits=11),
        "meta-group2-cve-distance": fixture(
            "entropy image 2x2, two groups of largest codes; group 2's distance code incomplete (the most "
            "table entries for 40 symbols)",
            8, 8, [largest, with_code(largest, "distance", shaped("distance", CVE["distance"]))]),
        "meta-group2-oversubscribed-deepest": fixture(
            "entropy image 2x2; group 2's green: lengths 1, 2, ..., 14 and three of 15 (over-subscribed at 15 only)",
            8, 8, [deep, with_code(plain, "green", over_deep)]),
        "oversubscribed-deepest": fixture(
            "green lengths 1, 2, ..., 14 and three of 15: over-subscribed only at the deepest level",
            4, 4, [with_code(plain, "green", over_deep)]),
        "oversubscribed-early": fixture(
            "green: three symbols of length 1 (and one of 2): over-subscribed at the first level",
            4, 4, [with_code(plain, "green", green_lengths([(1, 1), (2, 1), (3, 1), (4, 2)]))]),
        "incomplete-one-long-code": fixture(
            "green: one symbol of length 1 and one of length 15 (incomplete; two symbols)",
            4, 4, [with_code(plain, "green", green_lengths([(7, 1), (9, 15)]))]),
        "no-symbol": fixture(
            "green: every length 0 (no symbol)",
            4, 4, [with_code(plain, "green", green_lengths([]))]),
        "cache5-oversubscribed-deepest": fixture(
            "green with a 5-bit colour cache (312 symbols): lengths 1, 2, ..., 14 and three of 15 on the "
            "cache symbols 280...296 (over-subscribed at 15 only)",
            4, 4, [with_code(plain, "green", green_lengths(
                [(280 + i, n) for i, (_, n) in enumerate(DEEP_CHAIN)] + [(296, 15)], 5))], cache_bits=5),
    }


def old_libwebp_note(groups, cache_bits):
    """What libwebp before 1.3.2 did with the main image's codes: the entries their tables
    filled up to the first code it refused, against the buffer of kTableSize per group."""
    share = {c: OLD_SHARE[c] for c in CODES[1:]}
    share["green"] = OLD_SHARE["green"][cache_bits]
    buffer = len(groups) * sum(share.values())
    filled = 0
    for index, group in enumerate(groups):
        for code in CODES:
            kind, value = group[code]
            lengths = value if kind == "lengths" else [1 if s == value else 0 for s in range(alphabet_size(code, cache_bits))]
            entries, complete = old_libwebp_fill(lengths)
            filled += entries
            if not complete:
                past = "past its end by %d" % (filled - buffer) if filled > buffer else "within it"
                return ("libwebp < 1.3.2: group %d's %s code refused after its tables filled %d entries (share %d); "
                        "the codes built so far filled %d of the %d-entry buffer, %s"
                        % (index + 1, code, entries, share[code], filled, buffer, past))
    return "libwebp < 1.3.2: every code legal, %d of the %d-entry buffer" % (filled, buffer)


def fixture(recipe, width, height, groups, argb=None, cache_bits=0):
    """(file bytes, recipe and old libwebp's fill) of one fixture."""
    return vp8l_file(width, height, groups, argb, cache_bits), recipe + "; " + old_libwebp_note(groups, cache_bits)


def main():
    if shutil.which("dwebp") is None:
        raise SystemExit("make_webp_cve_fixtures.py: missing dwebp (apt: webp)")
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    recipes = {}
    for name, (data, recipe) in fixtures().items():
        (OUT / (name + ".webp")).write_bytes(data)
        recipes[name + ".webp"] = recipe
    with open(OUT / "RECIPES.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("# Made by Conformance/scripts/make_webp_cve_fixtures.py: per fixture, how it was made.\n")
        for name in sorted(recipes):
            f.write("%s\t%s\n" % (name, recipes[name]))
    notes = {"fixtures/webp-cve/" + n: r for n, r in recipes.items()}
    title = ("Lossless WebP fixtures with prefix codes of the CVE-2023-4863 shape, and legal controls (paths "
             "relative to Conformance/); made by scripts/make_webp_cve_fixtures.py.")
    frame_manifest(files_under(OUT, suffixes=(".webp",)), CONF, MANIFESTS / "fixtures-webp-cve.tsv", title,
                   notes=notes)
    print("make_webp_cve_fixtures.py: %d files in %s" % (len(recipes), OUT))


if __name__ == "__main__":
    main()
