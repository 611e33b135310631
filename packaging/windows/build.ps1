# The Windows installer, built on a Windows PC (PyInstaller does not cross-build) with Python
# 3.11 or 3.12 (the class server's PostgreSQL, pgserver, has no wheel for a later one) and
# Inno Setup 6.3 or later, from the repository's folder:
#
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
#
# It makes what `make bundle` makes on Linux (dist\dealer-trainer, from packaging\dealer-trainer.spec)
# and then dist\dealer-trainer-VERSION-setup.exe from packaging\windows\dealer-trainer.iss.
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")

function Run {
    & $args[0] $args[1..($args.Length - 1)]
    if ($LASTEXITCODE -ne 0) { throw "$($args -join ' ') failed ($LASTEXITCODE)" }
}

$venv = "build\bundle-venv"
if (-not (Test-Path "$venv\Scripts\python.exe")) { Run py -3.12 -m venv $venv }
$python = "$venv\Scripts\python.exe"
Run $python -m pip install --quiet ".[class-server,bundle]"
Run $python -m pip install --quiet --no-deps --no-build-isolation --force-reinstall .
Run $python packaging\icons.py build\icons
Run $python packaging\notices.py build\THIRD-PARTY-NOTICES
$env:DEALER_TRAINER_ICONS = "build\icons"
$env:DEALER_TRAINER_NOTICES = "build\THIRD-PARTY-NOTICES"
Run "$venv\Scripts\pyinstaller.exe" --noconfirm --log-level WARN --distpath dist --workpath build\pyinstaller `
    packaging\dealer-trainer.spec
$version = & $python -c "import trainer; print(trainer.__version__)"
Run "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" "/DAppVersion=$version" packaging\windows\dealer-trainer.iss
