# Sourced by make_fixtures.sh and make_gif_fixtures.sh (bash).

# need_tools SCRIPT TOOL TOOL_HINT HEADER HEADER_HINT: unless ImageMagick's convert ($CONVERT),
# TOOL, cc, /usr/include/HEADER and Pillow are all there, says on stderr what is missing (with
# the hints, in that order) and exits 1.
need_tools() {
    local script="$1" missing=() m
    command -v "${CONVERT:-convert}" >/dev/null || missing+=("convert (apt: imagemagick)")
    command -v "$2" >/dev/null || missing+=("$3")
    command -v cc >/dev/null || missing+=("cc")
    [ -e "/usr/include/$4" ] || missing+=("$5")
    python3 -c 'import PIL' 2>/dev/null || missing+=("Pillow (pip: Pillow)")
    if [ ${#missing[@]} -gt 0 ]; then
        for m in "${missing[@]}"; do
            printf '%s: missing %s\n' "$script" "$m" >&2
        done
        exit 1
    fi
}
