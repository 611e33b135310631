; Dealer Trainer's Windows installer (Inno Setup 6.3 or later), from the bundle PyInstaller made in
; dist\dealer-trainer: packaging\windows\build.ps1 builds both, on Windows.
;
; For a classroom: dealer-trainer-VERSION-setup.exe /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /ALLUSERS
; installs for every user of the PC without a question; "C:\Program Files\Dealer Trainer\unins000.exe"
; /VERYSILENT removes the program. Neither touches a user's progress file or settings (in
; %APPDATA%\Dealer Trainer), which this installer never wrote.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
; the same AppId in every version: a new installer updates the one installed
AppId={{5B0C9E2A-6F1D-4C8B-9E57-2D6A3F4B8C10}
AppName=Dealer Trainer
AppVersion={#AppVersion}
AppPublisher=Dealer Trainer
AppComments=Practice and certification for Pennsylvania's dice table games
DefaultDirName={autopf}\Dealer Trainer
DefaultGroupName=Dealer Trainer
DisableProgramGroupPage=yes
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=dialog commandline
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile=..\..\LICENSE
SetupIconFile=..\..\build\icons\dealer-trainer.ico
UninstallDisplayIcon={app}\dealer-trainer-app.exe
UninstallDisplayName=Dealer Trainer
OutputDir=..\..\dist
OutputBaseFilename=dealer-trainer-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[InstallDelete]
; an update replaces the program's files whole: nothing of the version before is left to load
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "..\..\dist\dealer-trainer\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Dealer Trainer"; Filename: "{app}\dealer-trainer-app.exe"
Name: "{autodesktop}\Dealer Trainer"; Filename: "{app}\dealer-trainer-app.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\dealer-trainer-app.exe"; Description: "{cm:LaunchProgram,Dealer Trainer}"; Flags: nowait postinstall skipifsilent
