#!/bin/sh
# Dealer Trainer on a Linux PC, from the unpacked bundle folder this script sits in.
#
#   sudo ./install.sh               for every user: /opt/dealer-trainer, the menu entry, the icon
#   ./install.sh --user             for you alone: ~/.local/opt/dealer-trainer and your menu
#   sudo ./install.sh --uninstall   removes the program (add --user for yours); every user's
#                                   progress file and settings stay where they are
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = "--user" ] || [ "${2:-}" = "--user" ]; then
    opt="$HOME/.local/opt"; bin="$HOME/.local/bin"; share="${XDG_DATA_HOME:-$HOME/.local/share}"
else
    opt=/opt; bin=/usr/local/bin; share=/usr/local/share
fi
apps="$share/applications"; icons="$share/icons/hicolor/256x256/apps"
if [ "${1:-}" = "--uninstall" ] || [ "${2:-}" = "--uninstall" ]; then
    rm -rf "$opt/dealer-trainer"
    rm -f "$bin/dealer-trainer" "$bin/dealer-trainer-app" "$apps/dealer-trainer.desktop" \
        "$icons/dealer-trainer.png"
    echo "Dealer Trainer removed; progress files and settings are kept."
    exit 0
fi
mkdir -p "$opt" "$bin" "$apps" "$icons"
if [ "$here" != "$opt/dealer-trainer" ]; then
    rm -rf "$opt/dealer-trainer.new"
    cp -a "$here" "$opt/dealer-trainer.new"
    rm -rf "$opt/dealer-trainer"
    mv "$opt/dealer-trainer.new" "$opt/dealer-trainer"
fi
ln -sf "$opt/dealer-trainer/dealer-trainer" "$bin/dealer-trainer"
ln -sf "$opt/dealer-trainer/dealer-trainer-app" "$bin/dealer-trainer-app"
sed "s|^Exec=.*|Exec=$opt/dealer-trainer/dealer-trainer-app|" "$here/dealer-trainer.desktop" \
    > "$apps/dealer-trainer.desktop"
cp "$here/dealer-trainer.png" "$icons/dealer-trainer.png"
echo "Dealer Trainer installed in $opt/dealer-trainer (menu: Education)."
