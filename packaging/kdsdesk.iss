; Inno Setup 6 script: a per-user installer for KDS Desk — no administrator rights needed.
;
;   1. On Windows, build the onedir bundle:   .venv\Scripts\pyinstaller --noconfirm build.spec
;      (dist\kdsdesk\ holds "KDS Desk.exe", kdsdesk.exe and _internal\; see docs/WINDOWS.md)
;   2. Compile:   "C:\Program Files (x86)\Inno Setup 6\ISCC.exe" /DAppVersion=0.1.0 packaging\kdsdesk.iss
;      → dist\KDSDesk-0.1.0-setup.exe
;
; Models: whatever dist\kdsdesk\_internal\models\ held at build time is inside the installer. For large models
; (the 2.4 GB GGUF) ship them BESIDE the installer instead — a "models" folder next to the setup .exe on the USB
; stick is copied at install time (external files, skipped when absent), so one installer serves
; "with LLM" and "without LLM" deliveries. Users can also drop models later into %LOCALAPPDATA%\KDSDesk\models.
;
; Not verified in this repository's CI (Linux): compiling and running this script — see docs/WINDOWS.md.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "KDS Desk"
#define SourceDir "..\dist\kdsdesk"

[Setup]
AppId={{6C1D3B0E-4E5A-4C43-9F59-6B0C2D7A4B11}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=KDS Desk
; per user: installs under %LOCALAPPDATA%\Programs, writes only HKCU — no UAC prompt
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
OutputDir=..\dist
OutputBaseFilename=KDSDesk-{#AppVersion}-setup
SetupIconFile=kdsdesk.ico
UninstallDisplayIcon={app}\KDS Desk.exe
Compression=lzma2/normal
SolidCompression=no
; the bundle is 64-bit Python
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
WizardStyle=modern
; files over 2 GB inside the installer need disk spanning; keep big models external (see above)
DiskSpanning=no

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
#if FileExists(AddBackslash(CompilerPath) + "Languages\Korean.isl")
Name: "korean"; MessagesFile: "compiler:Languages\Korean.isl"
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
; models delivered next to the installer (USB stick / network share), copied when present
Source: "{src}\models\*"; DestDir: "{app}\_internal\models"; Flags: external recursesubdirs createallsubdirs skipifsourcedoesntexist ignoreversion

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\KDS Desk.exe"
Name: "{autoprograms}\{#AppName} 자체 점검"; Filename: "{app}\kdsdesk.exe"; Parameters: "--selftest"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\KDS Desk.exe"; Tasks: desktopicon

[Run]
; optional check right after installing: runs offline on the bundled samples, one line per stage
Filename: "{cmd}"; Parameters: "/k ""{app}\kdsdesk.exe"" --selftest"; Description: "자체 점검 실행 (오프라인, 약 1분)"; Flags: postinstall unchecked nowait
Filename: "{app}\KDS Desk.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: postinstall nowait skipifsilent

; Uninstalling removes only what was installed: the user's library and models in %LOCALAPPDATA%\KDSDesk are kept.
