#!/usr/bin/env python3
"""Write Sources/WebPCodec/VP8Tables.swift from the text of RFC 6386.

The VP8 decoder's constant tables (key-frame sub-block mode probabilities, 11.5; coefficient
update probabilities, 13.4; default coefficient probabilities, 13.5; the DC and AC quantizer
lookups, 14.1) are taken from the RFC's own code blocks, so that no number is typed by hand.

Usage: python3 Conformance/scripts/extract_vp8_tables.py RFC6386.TXT
(the plain-text RFC, e.g. https://www.rfc-editor.org/rfc/rfc6386.txt; not kept in the project).
"""
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "Sources" / "WebPCodec" / "VP8Tables.swift"


def main(rfc_path):
    lines = Path(rfc_path).read_text(encoding="utf-8", errors="replace").split("\n")
    # Drop page footers and headers, which interrupt the code blocks.
    text = "\n".join(l for l in lines if not re.match(r"^(Bankoski, et al\.|RFC 6386 )", l) and "\f" not in l)

    def table(declaration, count):
        start = text.index(declaration)
        brace = text.index("{", start)
        numbers = [int(m.group()) for m in re.finditer(r"\d+", text[brace:])][:count]
        if len(numbers) != count:
            raise SystemExit("%s: found %d numbers, expected %d" % (declaration, len(numbers), count))
        return numbers

    def rows(numbers, per):
        return "\n".join("        " + ", ".join(str(n) for n in numbers[i:i + per]) + ","
                         for i in range(0, len(numbers), per))

    # The first kf_bmode_prob declaration (11.3) has no initialiser; the second (11.5) has.
    bmode = table("const Prob kf_bmode_prob [num_intra_bmodes] [num_intra_bmodes]\n     [num_intra_bmodes-1] =", 900)
    update = table("const Prob coeff_update_probs [4] [8] [3] [num_dct_tokens-1] =", 1056)
    default = table("const Prob default_coeff_probs [4] [8] [3] [num_dct_tokens - 1] =", 1056)
    dc = table("static const int dc_qlookup[QINDEX_RANGE] =", 128)
    ac = table("static const int ac_qlookup[QINDEX_RANGE] =", 128)
    out = [
        "// Tables of RFC 6386 (VP8), extracted from the RFC's text by",
        "// Conformance/scripts/extract_vp8_tables.py; the numbers are the RFC's, the layout",
        "// flattened. Do not edit by hand.",
        "",
        "/// The constant tables of VP8 key frames.",
        "enum VP8Tables {",
        "    /// RFC 6386 11.5: `kf_bmode_prob[above][left][9]`, flattened (index (above * 10 + left) * 9).",
        "    static let keyFrameSubblockModeProbabilities: [UInt8] = [", rows(bmode, 9), "    ]", "",
        "    /// RFC 6386 13.4: `coeff_update_probs[4][8][3][11]`, flattened.",
        "    static let coefficientUpdateProbabilities: [UInt8] = [", rows(update, 11), "    ]", "",
        "    /// RFC 6386 13.5: `default_coeff_probs[4][8][3][11]`, flattened.",
        "    static let defaultCoefficientProbabilities: [UInt8] = [", rows(default, 11), "    ]", "",
        "    /// RFC 6386 14.1: `dc_qlookup`.",
        "    static let dcQuantizer: [Int32] = [", rows(dc, 16), "    ]", "",
        "    /// RFC 6386 14.1: `ac_qlookup`.",
        "    static let acQuantizer: [Int32] = [", rows(ac, 16), "    ]",
        "}",
    ]
    OUT.write_text("\n".join(out) + "\n", encoding="utf-8")
    print("wrote %s" % OUT)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1])
