#!/usr/bin/env python3
"""Make MPO fixtures (Conformance/fixtures/mpo/*.mpo) and their manifest (fixtures-mpo.tsv).

An MPO (CIPA DC-007-2009, Multi-Picture Format) is a JPEG whose first image carries an APP2
'MPF\\0' segment: a TIFF header and an MP Index IFD with NumberOfImages (0xB001) and MP Entry
(0xB002: per image 16 bytes: attribute, size, offset counted from that TIFF header, two
dependent-image entries); the other images follow the first one's EOI. exiftool is not
installed, so the index is written here, as the spec lays it out, around JPEGs made by cjpeg
from synthetic patterns. Every file is checked: Pillow must open it as format MPO with the
number of frames written, and seeking to each frame must give that image's size.

The manifest's pixels come from the reference decoder only: djpeg of each image cut at its
offset (make_jpeg_manifests.mpo_rows, which also checks the count against Pillow's n_frames).

  python3 Conformance/scripts/make_mpo_fixtures.py

Needs: cjpeg, djpeg (apt: libjpeg-turbo-progs), Pillow (pip: Pillow).
"""

import struct
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_jpeg_manifests as jm  # noqa: E402
from manifest_common import write_tsv  # noqa: E402

CONF = HERE.parent
OUT = CONF / "fixtures" / "mpo"


def ppm(w, h, seed):
    """A P6 image: gradients shifted by `seed` (the two eyes of a stereo pair differ)."""
    px = bytearray()
    for y in range(h):
        for x in range(w):
            px += bytes(((x * 255 // max(1, w - 1) + seed * 9) % 256, (y * 255 // max(1, h - 1)) % 256,
                         ((x + y + seed * 5) * 3) % 256))
    return b"P6\n%d %d\n255\n" % (w, h) + bytes(px)


def cjpeg(w, h, seed, *flags):
    p = subprocess.run(["cjpeg", "-quality", "85", *flags], input=ppm(w, h, seed), capture_output=True, check=True)
    return p.stdout


def mp_index(sizes, offsets, endian):
    """APP2 payload 'MPF\\0' + TIFF header + MP Index IFD (version, count, entries)."""
    e = ">" if endian == "MM" else "<"
    n = len(sizes)
    ifd_offset = 8
    entry_count = 3
    entries_offset = ifd_offset + 2 + 12 * entry_count + 4
    tiff = endian.encode() + struct.pack(e + "HI", 42, ifd_offset)
    ifd = struct.pack(e + "H", entry_count)
    ifd += struct.pack(e + "HHI", 0xB000, 7, 4) + b"0100"            # MPFVersion, UNDEFINED[4]
    ifd += struct.pack(e + "HHII", 0xB001, 4, 1, n)                   # NumberOfImages, LONG
    ifd += struct.pack(e + "HHII", 0xB002, 7, 16 * n, entries_offset)  # MPEntry, UNDEFINED[16n]
    ifd += struct.pack(e + "I", 0)                                    # no next IFD
    entries = b""
    for k, (size, offset) in enumerate(zip(sizes, offsets)):
        attribute = 0x20020002 if k == 0 else 0x00020002                # representative; disparity type
        entries += struct.pack(e + "IIIHH", attribute, size, offset, 0, 0)
    return b"MPF\0" + tiff + ifd + entries


def mpo(images, endian):
    """The images as one MPO: the index in an APP2 right after the first image's SOI."""
    payload_len = len(mp_index([0] * len(images), [0] * len(images), endian))
    segment_len = 4 + payload_len
    first_len = len(images[0]) + segment_len
    tiff_start = 2 + 4 + 4                     # SOI, APP2 marker + length, 'MPF\0'
    sizes = [first_len] + [len(i) for i in images[1:]]
    offsets, at = [0], first_len
    for img in images[1:]:
        offsets.append(at - tiff_start)
        at += len(img)
    payload = mp_index(sizes, offsets, endian)
    app2 = b"\xff\xe2" + struct.pack(">H", 2 + len(payload)) + payload
    return images[0][:2] + app2 + images[0][2:] + b"".join(images[1:])


def main():
    from PIL import Image
    OUT.mkdir(parents=True, exist_ok=True)
    made = {
        "stereo-be-64x48.mpo": (mpo([cjpeg(64, 48, 0), cjpeg(64, 48, 1)], "MM"), 2),
        "stereo-le-40x24.mpo": (mpo([cjpeg(40, 24, 2), cjpeg(40, 24, 3, "-sample", "1x1")], "II"), 2),
        "three-progressive-32x32.mpo": (mpo([cjpeg(32, 32, 4, "-progressive"), cjpeg(32, 32, 5),
                                              cjpeg(32, 32, 6, "-progressive")], "MM"), 3),
    }
    rows = []
    for name, (data, frames) in made.items():
        path = OUT / name
        path.write_bytes(data)
        with Image.open(path) as im:
            if im.format != "MPO" or im.n_frames != frames:
                raise SystemExit("%s: Pillow reads %s with %d frames" % (name, im.format, getattr(im, "n_frames", 1)))
            for k in range(frames):
                im.seek(k)
                im.load()
        rel = "fixtures/mpo/" + name
        before = len(rows)
        first = jm.djpeg(path)
        if first["status"] != "ok":
            raise SystemExit("%s: djpeg %s" % (name, first["msg"]))
        rows.append((rel, 0, first["size"], first["sha"], "djpeg", "MPO image 1 of %d" % frames))
        rows.extend(jm.mpo_rows(path, rel))
        if len(rows) - before != frames:
            raise SystemExit("%s: %d rows for %d frames" % (name, len(rows) - before, frames))
    write_tsv(CONF / "manifests" / "fixtures-mpo.tsv",
              ["MPO fixtures (scripts/make_mpo_fixtures.py): one row per image of the MP index;",
               "djpeg -dct int of each image cut at its MP Entry offset, canonical RGBA8 SHA-256."],
              ["path", "frame", "size", "sha256", "reference", "note"], rows)


if __name__ == "__main__":
    main()
