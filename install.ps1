# Installs intenthook's binaries side by side from a release, on Windows:
#
#   irm https://github.com/intenthook/intenthook/releases/latest/download/install.ps1 | iex
#
# The archive for this system is checked against the release's checksums
# file before anything is installed. Windows support is experimental (see
# docs/install.md#windows). Settings, from the environment:
#   INTENTHOOK_VERSION      a release's version (1.2.0); default the latest
#   INTENTHOOK_BASE_URL     where the release's files are; default GitHub's
#   INTENTHOOK_INSTALL_DIR  where the binaries go; default
#                           %LOCALAPPDATA%\Programs\intenthook
$ErrorActionPreference = 'Stop'
$repo = 'https://github.com/intenthook/intenthook'
$version = if ($env:INTENTHOOK_VERSION) { $env:INTENTHOOK_VERSION.TrimStart('v') } else { 'latest' }
if ($env:INTENTHOOK_BASE_URL) {
  $base = $env:INTENTHOOK_BASE_URL.TrimEnd('/')
} elseif ($version -eq 'latest') {
  $base = "$repo/releases/latest/download"
} else {
  $base = "$repo/releases/download/v$version"
}
$dir = if ($env:INTENTHOOK_INSTALL_DIR) { $env:INTENTHOOK_INSTALL_DIR } else { Join-Path $env:LOCALAPPDATA 'Programs\intenthook' }

$arch = switch ($env:PROCESSOR_ARCHITECTURE) {
  'AMD64' { 'amd64' }
  'ARM64' { 'arm64' }
  default { throw "intenthook install: no release for $($env:PROCESSOR_ARCHITECTURE)" }
}

$tmp = Join-Path ([IO.Path]::GetTempPath()) ("intenthook-" + [Guid]::NewGuid())
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
  $sums = Join-Path $tmp 'checksums.txt'
  Invoke-WebRequest -UseBasicParsing -Uri "$base/checksums.txt" -OutFile $sums
  # The checksums file names the archive: intenthook_<version>_windows_<arch>.zip.
  $line = Get-Content $sums | Where-Object { $_ -match " (intenthook_\S+_windows_$arch\.zip)$" } | Select-Object -First 1
  if (-not $line) { throw "intenthook install: $base/checksums.txt lists no archive for windows/$arch" }
  $want, $archive = $line -split '\s+', 2
  $zip = Join-Path $tmp $archive
  Invoke-WebRequest -UseBasicParsing -Uri "$base/$archive" -OutFile $zip
  $got = (Get-FileHash -Algorithm SHA256 -Path $zip).Hash.ToLower()
  if ($got -ne $want.ToLower()) { throw "intenthook install: $archive does not match checksums.txt (sha256 $got, want $want): nothing installed" }
  $x = Join-Path $tmp 'x'
  Expand-Archive -Path $zip -DestinationPath $x
  $names = 'intenthook.exe', 'intenthook-full.exe', 'intenthook-mcp.exe', 'intenthook-export.exe', 'intenthook-attest.exe', 'intenthook-console.exe'
  foreach ($b in $names) {
    if (-not (Test-Path (Join-Path $x $b))) { throw "intenthook install: $archive holds no $b: nothing installed" }
  }
  New-Item -ItemType Directory -Force -Path $dir | Out-Null
  foreach ($b in $names) {
    Copy-Item -Force -Path (Join-Path $x $b) -Destination (Join-Path $dir $b)
  }
  $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  if (($userPath -split ';') -notcontains $dir) {
    [Environment]::SetEnvironmentVariable('Path', "$dir;$userPath", 'User')
    Write-Host "intenthook install: added $dir to your user PATH (new terminals see it)"
  }
  Write-Host "intenthook install: installed $(& (Join-Path $dir 'intenthook.exe') version) in $dir"
} finally {
  Remove-Item -Recurse -Force $tmp
}
