#!/usr/bin/env bash
# Builds a libFuzzer target and runs it on a seeded corpus.
#   Fuzz/run.sh [FORMAT] [SECONDS] [extra libFuzzer flags...]
#   Fuzz/run.sh png 1800
#   Fuzz/run.sh gif 1800
#   Fuzz/run.sh gif-encode 1800   (the GIF encoder, on requests read from the input)
#   Fuzz/run.sh jpeg 1800
#   Fuzz/run.sh webp 1800
#   Fuzz/run.sh jpeg-encode 1800
#   Fuzz/run.sh jpeg-transcode 1800   (the lossless transcoder: two setting bytes, then a JPEG)
#   Fuzz/run.sh webp-encode 1800
#   Fuzz/run.sh icc 1800   (the ICC profile parser and colour transform: the input is a profile)
# FORMAT: png (FuzzPNG), gif (FuzzGIF), gif-encode (FuzzGIFEncode, the GIF encoder), jpeg (FuzzJPEG),
# webp (FuzzWebP), encode (FuzzEncode, the PNG/APNG encoders: the input is a recipe of sizes,
# colours, options and pixels) or jpeg-encode (FuzzJPEGEncode: random images and settings through
# the JPEG encoder, decoded back) or webp-encode (FuzzWebPEncode: random images, animations and
# settings through the WebP encoders, lossless and lossy, decoded back). SECONDS: total fuzzing time (default 1800).
# Works from any directory. Corpus: Fuzz/corpus-<format>/ (gitignored); crash-*, timeout-*
# and leak-* files land in Fuzz/ (also gitignored): move reproducers to Fuzz/findings/.
set -euo pipefail

format="${1:-png}"
seconds="${2:-1800}"
shift $(( $# < 2 ? $# : 2 ))

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="${IMAGECODECS_SHARED:-$(cd "$root/.." && pwd)/shared}"
corpus_root="${IMAGECODECS_CORPUS:-$shared/corpus}"

case "$format" in
  png)
    product=FuzzPNG
    seed_dirs=("$corpus_root/pngsuite" "$corpus_root/png-extra" "$corpus_root/apng"
               "$corpus_root/crashers/png" "$root/Conformance/fixtures/png"
               "$root/Conformance/fixtures/apng" "$root/Conformance/fixtures/color")
    seed_name='*'
    ;;
  gif)
    product=FuzzGIF
    seed_dirs=("$corpus_root/gif" "$corpus_root/crashers/gif" "$root/Conformance/fixtures/gif")
    # The GIF suites keep their expected outputs (.png, .rgba, .conf, ...) beside the inputs.
    seed_name='*.[gG][iI][fF]'
    ;;
  gif-encode)
    product=FuzzGIFEncode
    # Requests, not files: any bytes seed it; the GIF corpus gives varied ones.
    seed_dirs=("$root/Conformance/fixtures/gif")
    seed_name='*'
    ;;
  icc)
    product=FuzzICC
    # Profiles: the fixtures' and the system's (icc-profiles-free, colord-data, ghostscript).
    seed_dirs=("$root/Conformance/fixtures/color" "/usr/share/color/icc")
    seed_name='*.ic[cm]'
    ;;
  jpeg)
    product=FuzzJPEG
    seed_dirs=("$corpus_root/jpeg" "$corpus_root/crashers/jpeg" "$root/Conformance/fixtures/jpeg"
               "$root/Conformance/fixtures/color")
    # *.jpg and *.jpeg; the reference renders beside them (*.png, *.ppm, *.jpg.png) are skipped.
    seed_name='*.[jJ][pP]*[gG]'
    ;;
  webp)
    product=FuzzWebP
    seed_dirs=("$corpus_root/webp" "$corpus_root/crashers/webp" "$root/Conformance/fixtures/webp"
               "$root/Conformance/fixtures/webp-lossy" "$root/Conformance/fixtures/webp-window"
               "$root/Conformance/fixtures/color")
    seed_name='*.[wW][eE][bB][pP]'
    ;;
  encode)
    # The input is a recipe (sizes, colours, options, pixels), not a file: seeds are any files.
    product=FuzzEncode
    seed_dirs=("$root/Conformance/fixtures/png")
    seed_name='*'
    ;;
  jpeg-encode)
    product=FuzzJPEGEncode
    # Any bytes are a request: seed with the encoder's small inputs.
    seed_dirs=("$root/Conformance/fixtures/jpeg-encoder")
    seed_name='*.p[gp]m'
    ;;
  jpeg-transcode)
    product=FuzzJPEGTranscode
    # Two setting bytes, then a JPEG: seed with the JPEG fixtures behind two zero bytes.
    seed_dirs=("$root/Conformance/fixtures/jpeg" "$corpus_root/crashers/jpeg")
    seed_name='*.jp*g'
    seed_prefix='\000\000'   # printf format: two zero bytes
    ;;
  webp-encode)
    product=FuzzWebPEncode
    # Any bytes are a request: seed with small inputs of the PNG fixtures.
    seed_dirs=("$root/Conformance/fixtures/png")
    seed_name='*'
    ;;
  *)
    echo "usage: $0 png|gif|gif-encode|jpeg|webp|encode|jpeg-encode|jpeg-transcode|webp-encode [SECONDS] [libFuzzer flags...]" >&2
    exit 2
    ;;
esac

cd "$here"
swift build -c release --scratch-path .build-fuzz --product "$product" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

corpus="corpus-$format"
mkdir -p "$corpus"
# Seed: copy (never link) every input of the format's folders that exist, named after their path.
for dir in "${seed_dirs[@]}"; do
  [ -d "$dir" ] || { echo "note: no seed folder $dir" >&2; continue; }
  while IFS= read -r -d '' file; do
    case "$file" in
      *.md|*.tsv|*.txt|*.json|*.toml|*README*|*LICENSE*|*.jpg.png) continue ;;
    esac
    rel="${file#"$corpus_root"/}"; rel="${rel#"$root"/}"
    name="seed-${rel//\//_}"
    if [ -n "${seed_prefix:-}" ]; then
      [ -e "$corpus/$name" ] || { printf "$seed_prefix" | cat - "$file" > "$corpus/$name"; }
    else
      [ -e "$corpus/$name" ] || cp "$file" "$corpus/$name"
    fi
  done < <(find "$dir" -type f -name "$seed_name" -print0)
done
echo "corpus $corpus: $(find "$corpus" -type f | wc -l) files" >&2

# The Swift runtime's backtracer reads the crashed thread's stack and trips AddressSanitizer
# (a stack-buffer-underflow report in CrashHandlerLinux.cpp that hides the real one); leave
# stack traces to the sanitizer's own handler.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
exec ".build-fuzz/release/$product" "$corpus" \
  -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=2048 -timeout=10 "$@"
