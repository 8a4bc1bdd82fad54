#!/usr/bin/env bash
# Installs the system packages the tests and the demo need, idempotently: only what is
# missing, and apt-get update only when something is. Needs root (or sudo).
set -euo pipefail

packages=(
  chromium            # the browser backend drives real headless Chromium over CDP
  fonts-dejavu-core   # a predictable Latin font for layout-dependent tests
  fonts-noto-cjk      # CJK glyphs for the per-glyph text fixtures
  fonts-noto-core     # Arabic glyphs for the RTL fixtures
  python3-pip         # scripts/fetch-miniwob.sh: `pip download miniwob==1.1.0` (never installs)
  python3-venv        # scripts/mcp-venv.sh: the stock MCP client the `arc-cua mcp` test drives
  curl                # scripts/model-serve.sh waits for the local model's /health
  # the desktop backend's tests: a GTK fixture on a private X display and D-Bus + AT-SPI bus
  xvfb xauth dbus dbus-x11 at-spi2-core libatk-bridge2.0-0
  python3-gi gir1.2-gtk-3.0 gir1.2-atspi-2.0
  python3-gi-cairo    # canvas_buttons.py draws with cairo on a DrawingArea
  # arc-vision's OCR: libtesseract, loaded at run time (building needs none), and its
  # English data; tesseract-ocr (the program) is the version doctor's test compares with
  libtesseract5 tesseract-ocr tesseract-ocr-eng
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-system: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup-system: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
