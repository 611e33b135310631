#!/bin/sh
# The macOS disk image, built on a Mac (PyInstaller does not cross-build) with Python 3.11 or
# 3.12 (the class server's PostgreSQL, pgserver, has no wheel for a later one), from the
# repository's folder:
#
#   sh packaging/macos/make-dmg.sh          dist/dealer-trainer-VERSION.dmg
#
# It makes "Dealer Trainer.app" from packaging/dealer-trainer.spec (as `make bundle` makes the
# Linux folder), adds PostgreSQL for `class-server` as pgserver installed it, signs the app for
# this Mac only (ad hoc: a school's Macs then open it with right-click › Open, or the IT person
# signs and notarises it with the school's Developer ID), and packs it with hdiutil.
set -eu
cd "$(dirname "$0")/../.."
venv=build/bundle-venv
python=${PYTHON:-python3.12}
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet '.[class-server,bundle]'
"$venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation --force-reinstall .
"$venv/bin/python" packaging/icons.py build/icons
"$venv/bin/python" packaging/notices.py build/THIRD-PARTY-NOTICES
DEALER_TRAINER_ICONS=build/icons DEALER_TRAINER_NOTICES=build/THIRD-PARTY-NOTICES \
    "$venv/bin/pyinstaller" --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
    packaging/dealer-trainer.spec
version=$("$venv/bin/python" -c 'import trainer; print(trainer.__version__)')
app="dist/Dealer Trainer.app"

# PostgreSQL, copied whole where pgserver looks for it: beside its modules, which are in the
# app's Contents/Frameworks (sys._MEIPASS), with the libraries its wheel keeps beside the package
site=$("$venv/bin/python" -c 'import pathlib, pgserver; print(pathlib.Path(pgserver.__file__).parent.parent)')
for part in pgserver/pginstall pgserver/.dylibs pgserver.libs; do
    if [ -d "$site/$part" ]; then
        rm -rf "$app/Contents/Frameworks/$part"
        mkdir -p "$(dirname "$app/Contents/Frameworks/$part")"
        cp -R "$site/$part" "$app/Contents/Frameworks/$part"
    fi
done
codesign --force --deep --sign - "$app"

stage=build/dmg
rm -rf "$stage"
mkdir -p "$stage"
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"
cp LICENSE build/THIRD-PARTY-NOTICES "$stage/"
hdiutil create -volname "Dealer Trainer" -srcfolder "$stage" -ov -format UDZO "dist/dealer-trainer-$version.dmg"
echo "dist/dealer-trainer-$version.dmg"
