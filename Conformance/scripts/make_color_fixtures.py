#!/usr/bin/env python3
"""Colour-management fixtures and their expected sRGB pixels (Conformance/fixtures/color/).

Each fixture NAME.EXT (PNG, JPEG or WebP carrying an ICC profile, PNG cICP or cHRM/gAMA)
has NAME.EXT.srgb.png beside it: the image converted to sRGB by LittleCMS 2 through Pillow's
ImageCms, the way `ImageCms.profileToProfile(im, src, ImageCms.createProfile("sRGB"),
renderingIntent=0)` does by default (perceptual intent, flags 0). Our `--srgb` output must be
within +-2 of it per channel (Tests/ImageCodecsTests/ColorManagementTests.swift).

Profiles come from the Debian packages icc-profiles-free, colord-data and ghostscript
(/usr/share/color/icc), plus profiles this script writes itself: a Display P3 matrix/TRC
profile (v4, parametric sRGB curve), a cHRM/gAMA-equivalent profile, and LUT-based RGB
profiles (lut8 `mft1` and v4 `lutAToBType` `mAB `) sampled from the Adobe RGB model.
Files without a profile of their own (cICP, cHRM/gAMA PNGs) are converted with the profile
that describes the same colour space. 16-bit PNGs hold v * 257, so Pillow's 8-bit reading
(the high byte) sees the same values our 16-bit conversion does.

Run from the project root: python3 Conformance/scripts/make_color_fixtures.py
"""
import io
import os
import struct
import zlib

from PIL import Image, ImageCms

OUT = "Conformance/fixtures/color"
ICC = "/usr/share/color/icc"
W, H = 64, 48
D50 = (0.9642, 1.0, 0.8249)


def pattern_rgb():
    im = Image.new("RGB", (W, H))
    im.putdata([(x * 255 // (W - 1), y * 255 // (H - 1), ((x * 7 + y * 13) % 64) * 4 + (x % 4))
                for y in range(H) for x in range(W)])
    return im


def pattern_gray():
    im = Image.new("L", (W, H))
    im.putdata([(x * 4 + y) % 256 for y in range(H) for x in range(W)])
    return im


def pattern_cmyk():
    im = Image.new("CMYK", (W, H))
    im.putdata([(x * 255 // (W - 1), y * 255 // (H - 1), (x * 5 + y * 3) % 256, ((x // 8) + (y // 8) * 8) * 4 % 256)
                for y in range(H) for x in range(W)])
    return im


# --- ICC writing (ICC.1:2022 clause 7) -------------------------------------------------------

def s15(v):
    return struct.pack(">i", int(round(v * 65536)))


def xyz_tag(x, y, z):
    return b"XYZ " + b"\0" * 4 + s15(x) + s15(y) + s15(z)


def mluc(text):
    u = text.encode("utf-16-be")
    return b"mluc" + b"\0" * 4 + struct.pack(">II", 1, 12) + b"enUS" + struct.pack(">II", len(u), 28) + u


def para(kind, params):
    return b"para" + b"\0" * 4 + struct.pack(">HH", kind, 0) + b"".join(s15(p) for p in params)


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def profile(tags, space=b"RGB ", pcs=b"XYZ ", version=0x04300000):
    table, body = b"", b""
    offset = 128 + 4 + 12 * len(tags)
    placed = {}
    for sig, data in tags:
        if id(data) in placed:
            off, size = placed[id(data)]
        else:
            off, size = offset + len(body), len(data)
            body += pad4(data)
            placed[id(data)] = (off, size)
        table += sig + struct.pack(">II", off, size)
    size = offset + len(body)
    header = struct.pack(">I", size) + b"lcms" + struct.pack(">I", version) + b"mntr" + space + pcs
    header += b"\0" * 12 + b"acsp" + b"\0" * 24 + struct.pack(">I", 0) + s15(D50[0]) + s15(D50[1]) + s15(D50[2])
    header += b"\0" * (128 - len(header))
    return header + struct.pack(">I", len(tags)) + table + body


def mat_inv(m):
    a, b, c, d, e, f, g, h, i = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [x / det for x in (e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g,
                              c * d - a * f, d * h - e * g, b * g - a * h, a * e - b * d)]


def mat_mul(a, b):
    return [sum(a[3 * r + k] * b[3 * k + c] for k in range(3)) for r in range(3) for c in range(3)]


def mat_vec(a, v):
    return [sum(a[3 * r + k] * v[k] for k in range(3)) for r in range(3)]


def colorants(white, red, green, blue):
    """Primaries and white (CIE xy) to D50-adapted colorant columns (Bradford)."""
    def xyz(p):
        return [p[0] / p[1], 1.0, (1 - p[0] - p[1]) / p[1]]
    prim = [xyz(red)[r] if c == 0 else xyz(green)[r] if c == 1 else xyz(blue)[r] for r in range(3) for c in range(3)]
    s = mat_vec(mat_inv(prim), xyz(white))
    scaled = [prim[3 * r + c] * s[c] for r in range(3) for c in range(3)]
    brad = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
    src, dst = mat_vec(brad, xyz(white)), mat_vec(brad, list(D50))
    adapt = mat_mul(mat_inv(brad), mat_mul([dst[0] / src[0], 0, 0, 0, dst[1] / src[1], 0, 0, 0, dst[2] / src[2]], brad))
    m = mat_mul(adapt, scaled)
    return [(m[0 + c], m[3 + c], m[6 + c]) for c in range(3)]


def matrix_profile(name, white, red, green, blue, curve):
    cols = colorants(white, red, green, blue)
    return profile([(b"desc", mluc(name)), (b"wtpt", xyz_tag(*D50)),
                    (b"rXYZ", xyz_tag(*cols[0])), (b"gXYZ", xyz_tag(*cols[1])), (b"bXYZ", xyz_tag(*cols[2])),
                    (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)])


SRGB_CURVE = para(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
D65 = (0.3127, 0.3290)
P3 = matrix_profile("Display P3 (fixture)", D65, (0.680, 0.320), (0.265, 0.690), (0.150, 0.060), SRGB_CURVE)
CHRM = ([31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000], 45455)
CHRM_PROFILE = matrix_profile("cHRM/gAMA (fixture)", *[(CHRM[0][i] / 1e5, CHRM[0][i + 1] / 1e5) for i in range(0, 8, 2)],
                              para(0, [100000 / CHRM[1]]))


def adobe_model(rgb):
    """Adobe RGB (1998) device values to XYZ D50, the model the LUT profiles sample."""
    cols = colorants(D65, (0.64, 0.33), (0.21, 0.71), (0.15, 0.06))
    lin = [v ** 2.19921875 for v in rgb]
    return [sum(cols[c][r] * lin[c] for c in range(3)) for r in range(3)]


def lut_profiles():
    """An 8-bit lut8 ('mft1') and a v4 lutAToB ('mAB ') profile, XYZ PCS, 9-point grids."""
    n = 9
    grid = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                grid.append([min(max(v * 32768 / 65535, 0), 1) for v in adobe_model([i / (n - 1), j / (n - 1), k / (n - 1)])])
    ident8 = bytes(range(256))
    mft1 = b"mft1" + b"\0" * 4 + bytes([3, 3, n, 0]) + b"".join(s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    mft1 += ident8 * 3 + bytes(round(v * 255) for node in grid for v in node) + ident8 * 3
    lut8 = profile([(b"desc", mluc("lut8 Adobe RGB (fixture)")), (b"wtpt", xyz_tag(*D50)), (b"A2B0", mft1)], version=0x02100000)
    ident = para(0, [1.0])
    clut = bytes([n, n, n] + [0] * 13) + bytes([2, 0, 0, 0]) + b"".join(struct.pack(">H", round(v * 65535)) for node in grid for v in node)
    head = 32
    b_off = head
    b_curves = ident * 3
    a_off = b_off + len(b_curves)
    a_curves = para(3, [1.2, 0.9, 0.1, 0.5, 0.2]) + ident + para(0, [0.8])
    c_off = a_off + len(a_curves)
    mab = b"mAB " + b"\0" * 4 + bytes([3, 3, 0, 0]) + struct.pack(">IIIII", b_off, 0, 0, c_off, a_off) + b_curves + a_curves + clut
    # The A curves bend the input; the CLUT is sampled at the inverse so the whole stays Adobe RGB-like.
    inv = [lambda v: ((v ** (1 / 1.2)) - 0.1) / 0.9 if v >= (0.9 * 0.2 + 0.1) ** 1.2 else v / 0.5,
           lambda v: v, lambda v: v ** (1 / 0.8)]
    grid2 = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                dev = [inv[0](i / (n - 1)), inv[1](j / (n - 1)), inv[2](k / (n - 1))]
                grid2.append([min(max(v * 32768 / 65535, 0), 1) for v in adobe_model([min(max(d, 0), 1) for d in dev])])
    clut = bytes([n, n, n] + [0] * 13) + bytes([2, 0, 0, 0]) + b"".join(struct.pack(">H", round(v * 65535)) for node in grid2 for v in node)
    mab = b"mAB " + b"\0" * 4 + bytes([3, 3, 0, 0]) + struct.pack(">IIIII", b_off, 0, 0, c_off, a_off) + b_curves + a_curves + clut
    labt = profile([(b"desc", mluc("mAB Adobe RGB (fixture)")), (b"wtpt", xyz_tag(*D50)), (b"A2B0", mab)])
    return lut8, labt


# --- containers -------------------------------------------------------------------------------

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, im, sixteen=False, icc=None, extra=()):
    """A PNG written by hand, so that 16-bit samples and cICP/cHRM/gAMA chunks are exact."""
    channels = {"RGB": 3, "L": 1}[im.mode]
    color_type = {3: 2, 1: 0}[channels]
    raw = b""
    px = list(im.get_flattened_data()) if hasattr(im, "get_flattened_data") else list(im.getdata())
    for y in range(H):
        raw += b"\0"
        for x in range(W):
            v = px[y * W + x]
            vals = v if isinstance(v, tuple) else (v,)
            raw += b"".join(struct.pack(">H", s * 257) if sixteen else bytes([s]) for s in vals)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16 if sixteen else 8, color_type, 0, 0, 0))
    for kind, payload in extra:
        data += chunk(kind, payload)
    if icc is not None:
        data += chunk(b"iCCP", b"icc\0\0" + zlib.compress(icc))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def expected(path, im, icc):
    """Pillow/LittleCMS: the image through `icc` to sRGB, perceptual intent, as an RGB PNG."""
    src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    out = ImageCms.profileToProfile(im, src, ImageCms.createProfile("sRGB"), renderingIntent=0, outputMode="RGB")
    out.info.clear()  # LittleCMS's sRGB profile carries a creation date: keep the file reproducible
    out.save(path + ".srgb.png")


def main():
    os.makedirs(OUT, exist_ok=True)
    rgb, gray, cmyk = pattern_rgb(), pattern_gray(), pattern_cmyk()
    read = lambda p: open(os.path.join(ICC, p), "rb").read()
    adobe_v4, prophoto = read("colord/AdobeRGB1998.icc"), read("colord/ProPhotoRGB.icc")
    a98_v2, romm_v2, gs_rgb = read("ghostscript/a98.icc"), read("ghostscript/rommrgb.icc"), read("ghostscript/default_rgb.icc")
    wide, eci = read("colord/WideGamutRGB.icc"), read("colord/ECI-RGBv2.icc")
    gray_v2, sgray, ps_gray = read("Gray.icc"), read("ghostscript/sgray.icc"), read("ghostscript/ps_gray.icc")
    cmyk_v2, cmyk_v4 = read("ghostscript/default_cmyk.icc"), read("ghostscript/ps_cmyk.icc")
    lut8, mab = lut_profiles()

    def png(name, im, icc, ref=None, **kw):
        path = os.path.join(OUT, name)
        write_png(path, im, icc=icc, **kw)
        expected(path, im, ref or icc)

    png("p3.png", rgb, P3)
    png("p3-16.png", rgb, P3, sixteen=True)
    png("adobe-v4.png", rgb, adobe_v4)
    png("prophoto-v4-16.png", rgb, prophoto, sixteen=True)
    png("widegamut.png", rgb, wide)
    png("eci-v2.png", rgb, eci)
    png("lut8.png", rgb, lut8)
    png("mab.png", rgb, mab)
    png("gray-v2.png", gray, gray_v2)
    png("gray-v4-16.png", gray, ps_gray, sixteen=True)
    png("cicp-p3.png", rgb, None, ref=P3, extra=[(b"cICP", bytes([12, 13, 0, 1]))])
    png("chrm-gama.png", rgb, None, ref=CHRM_PROFILE,
        extra=[(b"gAMA", struct.pack(">I", CHRM[1])), (b"cHRM", struct.pack(">8I", *CHRM[0]))])

    write_png(os.path.join(OUT, "cicp-pq.png"), rgb, extra=[(b"cICP", bytes([9, 16, 0, 1]))])  # refused: no expected image

    for name, im, icc in [("a98-v2.jpg", rgb, a98_v2), ("romm-v2.jpg", rgb, romm_v2), ("gs-rgb-table.jpg", rgb, gs_rgb),
                          ("p3.jpg", rgb, P3), ("sgray.jpg", gray, sgray),
                          ("cmyk-v2-lab.jpg", cmyk, cmyk_v2), ("cmyk-v4-xyz.jpg", cmyk, cmyk_v4)]:
        path = os.path.join(OUT, name)
        im.save(path, quality=92, icc_profile=icc)
        expected(path, Image.open(path), icc)
    for name, icc in [("p3.webp", P3), ("adobe-v4.webp", adobe_v4)]:
        path = os.path.join(OUT, name)
        rgb.save(path, lossless=True, icc_profile=icc)
        expected(path, Image.open(path).convert("RGB"), icc)
    with open(os.path.join(OUT, "p3.icc"), "wb") as f:
        f.write(P3)


if __name__ == "__main__":
    main()
