#!/usr/bin/env python3
"""Write the hostile-input reproducers of issue 15 (Conformance/fixtures/hostile/), byte by byte.

  python3 Conformance/scripts/make_hostile_fixtures.py [--floods DIR]

Each file isolates one rule; RECIPES.tsv beside them says what each one breaks. The expected
verdicts and frames come from the reference decoders, through make_hostile_manifests.py.
JPEG and lossy WebP files start from a small picture encoded by cjpeg / cwebp (a deterministic
PPM written here), then have their markers or frame tag rewritten.

--floods DIR also writes the full-size metadata floods of the issue into DIR (not committed:
several MB each), for timing `feed` against `hash`: 15,000 zTXt chunks, 200,000 tEXt chunks,
a million and three million empty GIF comments, a 16 MiB zTXt, and the 16384x16384 progressive
JPEG of 1,000 end-of-band scans.

Needs: cjpeg, jpegtran, cwebp (apt: libjpeg-turbo-progs, webp). Deterministic.
"""

import argparse
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "hostile"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------
# PNG / APNG

def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def ihdr(width, height, depth=8, color=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0))


def actl(frames, plays=0):
    return chunk(b"acTL", struct.pack(">II", frames, plays))


def fctl(seq, width, height, x=0, y=0, delay=(1, 10)):
    return chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, width, height, x, y, delay[0], delay[1], 0, 0))


def fdat(seq, data):
    return chunk(b"fdAT", struct.pack(">I", seq) + data)


def grey_rows(levels):
    """A 4x4 greyscale image, one level per row, filter 0."""
    return zlib.compress(b"".join(b"\x00" + bytes([v]) * 4 for v in levels))


IMAGE = grey_rows((0x80, 0x40, 0xC0, 0xFF))   # the frame data
STATIC = grey_rows((0x10, 0x20, 0x30, 0x40))  # a default image that differs from the frames
IEND = chunk(b"IEND", b"")


def apng_fixtures():
    """Frames 0-2 are valid; the fcTL after them reaches past the canvas (x=2, width 4), which
    breaks APNG 1.0's rule, so the file falls back to its static image once that fcTL arrives."""
    bad = fctl(5, 4, 4, x=2)
    yield ("apng-late-fallback.png",
           "issue 15 item 1: default image is frame 0 (fcTL before IDAT); frames 1-2 valid; the fourth fcTL lies outside the canvas",
           PNG_SIGNATURE + ihdr(4, 4) + actl(4) + fctl(0, 4, 4) + chunk(b"IDAT", IMAGE)
           + fctl(1, 4, 4) + fdat(2, IMAGE) + fctl(3, 4, 4) + fdat(4, IMAGE) + bad + fdat(6, IMAGE) + IEND)
    yield ("apng-late-fallback-hidden.png",
           "default image not part of the animation (no fcTL before IDAT); three valid frames, then an fcTL outside the canvas",
           PNG_SIGNATURE + ihdr(4, 4) + actl(4) + chunk(b"IDAT", STATIC)
           + fctl(0, 4, 4) + fdat(1, IMAGE) + fctl(2, 4, 4) + fdat(3, IMAGE) + fctl(4, 4, 4) + fdat(5, IMAGE)
           + fctl(6, 4, 4, x=2) + fdat(7, IMAGE) + IEND)
    yield ("apng-late-fallback-hidden-one.png",
           "hidden default image; one valid frame, then an fcTL outside the canvas: the count stays 1 but frame 0 changes",
           PNG_SIGNATURE + ihdr(4, 4) + actl(2) + chunk(b"IDAT", STATIC)
           + fctl(0, 4, 4, delay=(0, 0)) + fdat(1, IMAGE) + fctl(2, 4, 4, x=2) + fdat(3, IMAGE) + IEND)
    yield ("apng-late-sequence-gap.png",
           "default image is frame 0; two valid frames, then an fdAT whose sequence number skips one",
           PNG_SIGNATURE + ihdr(4, 4) + actl(3) + fctl(0, 4, 4) + chunk(b"IDAT", IMAGE)
           + fctl(1, 4, 4) + fdat(2, IMAGE) + fctl(3, 4, 4) + fdat(5, IMAGE) + IEND)


def text_png(chunks):
    return PNG_SIGNATURE + ihdr(4, 4) + b"".join(chunks) + chunk(b"IDAT", IMAGE) + IEND


def ztxt(keyword, text, level=9):
    return chunk(b"zTXt", keyword + b"\x00\x00" + zlib.compress(text, level))


def ztxt_flood(count):
    """`count` zTXt chunks of 100 bytes of text each (each is inflated on its own)."""
    return text_png(ztxt(b"k%d" % i, (b"line %d " % i) * 12) for i in range(count))


def text_flood(count):
    return text_png(chunk(b"tEXt", b"k\x00" + b"%d" % i) for i in range(count))


def big_ztxt(size, byte):
    """One zTXt chunk whose text is `size` bytes of `byte` (Latin-1)."""
    return text_png([ztxt(b"big", bytes([byte]) * size)])


def png_fixtures():
    yield "png-ztxt-flood.png", "1,200 zTXt chunks of 100 bytes (each an item of its own)", ztxt_flood(1200)
    yield "png-text-flood.png", "2,000 tEXt chunks of a few bytes", text_flood(2000)
    yield ("png-ztxt-latin1.png", "one zTXt whose 1 MiB of text is the Latin-1 byte 0xE9 (UTF-8: 2 MiB)",
           big_ztxt(1 << 20, 0xE9))


# --------------------------------------------------------------------------
# GIF

def gif(body):
    """GIF89a, 4x4 screen, a 2-entry global colour table, `body` before one 4x4 image."""
    lzw = lzw_literals([0, 1] * 8)
    image = b"\x2c" + struct.pack("<HHHHB", 0, 0, 4, 4, 0) + b"\x02" + bytes([len(lzw)]) + lzw + b"\x00"
    return b"GIF89a" + struct.pack("<HHBBB", 4, 4, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff" + body + image + b"\x3b"


def lzw_literals(indices):
    """GIF LZW data (minimum code size 2) that sends each index as a literal after a Clear
    code, so that codes stay 3 bits wide, then End of Information."""
    codes = [c for i in indices for c in (4, i)] + [5]
    value = sum(code << (3 * n) for n, code in enumerate(codes))
    return value.to_bytes((3 * len(codes) + 7) // 8, "little")


def gif_fixtures():
    yield "gif-comment-flood.gif", "3,000 empty comment extensions", gif(b"\x21\xfe\x00" * 3000)
    yield "gif-comment-flood-text.gif", "1,500 comment extensions of 3 bytes", gif(b"\x21\xfe\x03abc\x00" * 1500)


# --------------------------------------------------------------------------
# JPEG

def ppm(width, height):
    """A deterministic RGB gradient."""
    pixels = bytes(((x * 255 // max(1, width - 1)) if c == 0 else (y * 255 // max(1, height - 1)) if c == 1
                    else ((x ^ y) * 16) & 255) for y in range(height) for x in range(width) for c in range(3))
    return b"P6\n%d %d\n255\n" % (width, height) + pixels


def run(args, data):
    return subprocess.run(args, input=data, capture_output=True, check=True).stdout


def segments(jpeg):
    """(marker, start, end) of each marker segment up to the first SOS (inclusive)."""
    out, pos = [], 2
    while pos < len(jpeg):
        marker = jpeg[pos + 1]
        length = struct.unpack(">H", jpeg[pos + 2:pos + 4])[0]
        out.append((marker, pos, pos + 2 + length))
        if marker == 0xDA:
            break
        pos += 2 + length
    return out


def headers_until(jpeg, stop):
    """SOI and the segments before the first marker in `stop`."""
    out = jpeg[:2]
    for marker, start, end in segments(jpeg):
        if marker in stop:
            break
        out += jpeg[start:end]
    return out


def with_component_ids(jpeg, ids):
    """The file with every frame and scan component identifier replaced by `ids` (in order)."""
    data = bytearray(jpeg)
    pos = 2
    while pos < len(data):
        marker = data[pos + 1]
        if marker == 0xD9:
            break
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            for i in range(data[pos + 9]):
                data[pos + 10 + 3 * i] = ids[i]
        elif marker == 0xDA:
            n = data[pos + 4]
            old = [data[pos + 5 + 2 * i] for i in range(n)]
            for i in range(n):
                data[pos + 5 + 2 * i] = ids[old[i] - 1]
            pos = scan_end(data, pos + 2 + length)
            continue
        pos += 2 + length
    return bytes(data)


def swapped_scan_components(jpeg):
    """The file with the first two components of its first SOS swapped (identifier and tables)."""
    i = jpeg.index(b"\xff\xda")
    data = bytearray(jpeg)
    data[i + 5:i + 7], data[i + 7:i + 9] = jpeg[i + 7:i + 9], jpeg[i + 5:i + 7]
    return bytes(data)


def scan_end(data, pos):
    """The position of the marker that ends the entropy-coded data from `pos`."""
    while True:
        pos = data.index(b"\xff", pos)
        if data[pos + 1] == 0 or 0xD0 <= data[pos + 1] <= 0xD7:
            pos += 2
            continue
        return pos


def jpeg_fixtures(tmp):
    picture = ppm(24, 16)
    baseline = run(["cjpeg", "-quality", "90", "-sample", "2x2,1x1,1x1"], picture)
    progressive = run(["cjpeg", "-quality", "90", "-progressive"], picture)
    yield "jpeg-sof-eoi-baseline.jpg", "baseline headers (DQT, SOF0, DHT) then EOI: no scan", \
        headers_until(baseline, (0xDA,)) + b"\xff\xd9"
    yield "jpeg-sof-eoi-progressive.jpg", "progressive headers (SOF2) then EOI: no scan", \
        headers_until(progressive, (0xDA,)) + b"\xff\xd9"
    yield "jpeg-soi-eoi.jpg", "SOI then EOI", b"\xff\xd8\xff\xd9"
    yield "jpeg-headers-eoi.jpg", "SOI, APP0, DQT, DHT, then EOI: no frame", \
        b"".join(baseline[s:e] for m, s, e in segments(baseline) if m in (0xE0, 0xDB, 0xC4)).join(
            [b"\xff\xd8", b"\xff\xd9"])
    yield "jpeg-tem-after-soi.jpg", "a TEM marker (FF 01, no length) right after SOI", \
        baseline[:2] + b"\xff\x01" + baseline[2:]
    yield "jpeg-tem-between-segments.jpg", "a TEM marker between DQT and SOF0", \
        headers_until(baseline, (0xC0,)) + b"\xff\x01" + baseline[len(headers_until(baseline, (0xC0,))):]
    yield "jpeg-repeated-ids-baseline.jpg", "baseline 4:2:0, component identifiers 1,1,1 in SOF0 and SOS", \
        with_component_ids(baseline, [1, 1, 1])
    yield "jpeg-repeated-ids-progressive.jpg", "progressive, component identifiers 1,1,1 in SOF2 and every SOS", \
        with_component_ids(progressive, [1, 1, 1])
    yield "jpeg-repeated-ids-two.jpg", "baseline 4:2:0, component identifiers 1,2,2", \
        with_component_ids(baseline, [1, 2, 2])
    yield "jpeg-scan-components-out-of-order.jpg", "baseline 4:4:4, SOS names component 2 before component 1 (B.2.3 wants frame order)", \
        swapped_scan_components(run(["cjpeg", "-quality", "90", "-sample", "1x1,1x1,1x1"], picture))
    yield "jpeg-junk-before-first-marker.jpg", "SOI, then 4 bytes that are no marker, then the rest of the file", \
        baseline[:2] + b"\x00\x01\x02\x03" + baseline[2:]
    yield "jpeg-junk-after-first-marker.jpg", "SOI, APP0, then 4 bytes that are no marker, then the rest", \
        headers_until(baseline, (0xDB,)) + b"\x00\x01\x02\x03" + baseline[len(headers_until(baseline, (0xDB,))):]
    yield "jpeg-eob-scan-flood.jpg", "greyscale 256x256 progressive: a DC scan, then 999 AC scans of one end-of-band run each", \
        eob_scan_flood(256, 999)
    yield "jpeg-jfif-between-scans.jpg", "progressive with an Adobe segment (transform 0: RGB) before the frame and its JFIF APP0 moved after the first scan", \
        jfif_between_scans(progressive)


def jfif_between_scans(jpeg):
    """`jpeg` with an Adobe APP14 saying transform 0 (RGB) in place of its JFIF APP0, and that
    APP0 moved to just after the first scan's data. libjpeg decides the colour space from the
    segments before the first SOS, so the late JFIF must not turn the decode into YCbCr."""
    app0 = next((start, end) for marker, start, end in segments(jpeg) if marker == 0xE0)
    adobe = b"\xff\xee" + struct.pack(">H", 14) + b"Adobe" + bytes([0, 100, 0, 0, 0, 0, 0])
    body = jpeg[:app0[0]] + adobe + jpeg[app0[1]:]
    first = body.index(b"\xff\xda")
    after = scan_end(body, first + 2 + struct.unpack(">H", body[first + 2:first + 4])[0])
    return body[:after] + jpeg[app0[0]:app0[1]] + body[after:]


def eob_scan_flood(size, scans):
    """A progressive greyscale frame of `size`x`size` whose AC scans each code one end-of-band
    run (EOB14 with 14 extra bits) over and over: almost no bytes, a pass over every block."""
    dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + b"\x01" * 64
    sof = b"\xff\xc2" + struct.pack(">HBHHB", 11, 8, size, size, 1) + b"\x01\x11\x00"
    # DC table 0: one code of length 1 for category 0. AC table 0: one code of length 1 for EOB14 (0xE0).
    dht = (b"\xff\xc4" + struct.pack(">H", 2 + 17 + 1) + b"\x00" + b"\x01" + b"\x00" * 15 + b"\x00"
           + b"\xff\xc4" + struct.pack(">H", 2 + 17 + 1) + b"\x10" + b"\x01" + b"\x00" * 15 + b"\xe0")
    blocks = (size // 8) ** 2
    dc = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00" + b"\x00\x00\x00" + bits_zero(blocks)
    # EOB14 covers 2^14 + r bands: with all 14 bits set, 32767 blocks per code.
    runs = -(-blocks // 32767)
    ac_data = pack_bits("0" + "1" * 14, runs)
    ac = b""
    for i in range(scans):
        ac += b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00" + bytes([1 + i % 63, 1 + i % 63, 0]) + ac_data
    return b"\xff\xd8" + dqt + sof + dht + dc + ac + b"\xff\xd9"


def bits_zero(count):
    """`count` one-bit zero codes, padded with 1 bits."""
    return pack_bits("0", count)


def pack_bits(code, times):
    bits = code * times
    bits += "1" * (-len(bits) % 8)
    data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    return data.replace(b"\xff", b"\xff\x00")


# --------------------------------------------------------------------------
# WebP (lossy)

def riff(chunks):
    body = b"WEBP" + b"".join(kind + struct.pack("<I", len(p)) + p + (b"\0" if len(p) % 2 else b"")
                              for kind, p in chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def vp8_payload(webp):
    assert webp[12:16] == b"VP8 "
    size = struct.unpack("<I", webp[16:20])[0]
    return webp[20:20 + size]


def with_tag(payload, partition=None, profile=None):
    tag = payload[0] | payload[1] << 8 | payload[2] << 16
    if partition is not None:
        tag = (tag & 0x1F) | partition << 5
    if profile is not None:
        tag = (tag & ~0x0E) | profile << 1
    return bytes([tag & 255, tag >> 8 & 255, tag >> 16]) + payload[3:]


def webp_fixtures(tmp):
    src = tmp / "picture.ppm"
    src.write_bytes(ppm(24, 16))
    out = tmp / "picture.webp"
    subprocess.run(["cwebp", "-quiet", "-q", "80", str(src), "-o", str(out)], check=True)
    payload = vp8_payload(out.read_bytes())
    yield "webp-vp8-partition-past-chunk.webp", "VP8 first partition size larger than the chunk", \
        riff([(b"VP8 ", with_tag(payload, partition=len(payload) + 100))])
    yield "webp-vp8-profile-7.webp", "VP8 frame tag with version (profile) 7", \
        riff([(b"VP8 ", with_tag(payload, profile=7))])
    yield "webp-vp8-partition-zero.webp", "VP8 first partition size 0 in a complete file", \
        riff([(b"VP8 ", with_tag(payload, partition=0))])


# --------------------------------------------------------------------------

def gif_comment_flood(count):
    return gif(b"\x21\xfe\x00" * count)


def write_floods(folder):
    folder.mkdir(parents=True, exist_ok=True)
    floods = {
        "flood-ztxt-15000.png": ztxt_flood(15000),
        "flood-text-200000.png": text_flood(200000),
        "flood-comments-1m.gif": gif_comment_flood(1_000_000),
        "flood-comments-3m.gif": gif_comment_flood(3_000_000),
        "flood-ztxt-16mib.png": big_ztxt(16 << 20, ord("a")),
        "flood-ztxt-8mib.png": big_ztxt(8 << 20, ord("a")),
        "flood-ztxt-4mib-latin1.png": big_ztxt(4 << 20, 0xE9),
        "flood-eob-scans-16384.jpg": eob_scan_flood(16384, 999),
    }
    for name, data in floods.items():
        (folder / name).write_bytes(data)
        print("wrote %s (%d bytes)" % (folder / name, len(data)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--floods", type=Path, help="also write the full-size floods into this folder")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    recipes = []
    with tempfile.TemporaryDirectory(prefix="hostile.") as tmp:
        tmp = Path(tmp)
        for group in (apng_fixtures(), png_fixtures(), gif_fixtures(), jpeg_fixtures(tmp), webp_fixtures(tmp)):
            for name, what, data in group:
                (OUT / name).write_bytes(data)
                recipes.append((name, what))
    with open(OUT / "RECIPES.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("# Made by Conformance/scripts/make_hostile_fixtures.py; expected results in manifests/fixtures-hostile.tsv.\n")
        f.write("# file\twhat it breaks\n")
        for name, what in recipes:
            f.write("%s\t%s\n" % (name, what))
    print("wrote %d files into %s" % (len(recipes), OUT))
    if args.floods:
        write_floods(args.floods)


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    main()
