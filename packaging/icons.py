"""Draw the app's icon (resources/icon/dealer-trainer.svg) for the installers, with Qt:

    python packaging/icons.py OUT_FOLDER

writes dealer-trainer-N.png for each size in SIZES (Linux's menus), dealer-trainer.ico (Windows:
each size a PNG inside) and dealer-trainer.icns (macOS: the same), from the one drawing. The
running app sets its window icon from the SVG itself (ui/shell/icon.py).
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icon" / "dealer-trainer.svg"
NAME = "dealer-trainer"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
#: the .ico's sizes: Windows reads none above 256
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: the .icns's chunk for each size (Apple's types of PNG icons)
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09", 1024: b"ic10"}


def ico(pngs: dict[int, bytes]) -> bytes:
    """An .ico of PNG images: the header, one 16-byte entry per image, then the images. A width
    or height of 256 is written 0, as the format says."""
    sizes = sorted(pngs)
    out = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    for size in sizes:
        side = 0 if size >= 256 else size
        out += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(pngs[size]), offset)
        offset += len(pngs[size])
    return out + b"".join(pngs[size] for size in sizes)


def icns(pngs: dict[int, bytes]) -> bytes:
    """An .icns of PNG images: 'icns' and the whole length, then a chunk (type, length, PNG)
    for each size."""
    chunks = b"".join(ICNS_TYPES[size] + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
                      for size in sorted(pngs) if size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(chunks)) + chunks


def render(size: int) -> bytes:
    """The drawing as a PNG of `size` pixels square, with its transparent corners."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python packaging/icons.py OUT_FOLDER", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (fonts and painting need one)
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    pngs = {size: render(size) for size in SIZES}
    for size, data in pngs.items():
        (out / f"{NAME}-{size}.png").write_bytes(data)
    (out / f"{NAME}.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (out / f"{NAME}.icns").write_bytes(icns(pngs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
