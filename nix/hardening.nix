# The systemd sandbox sift runs in, shared by the NixOS module and kept
# equal to deploy/sift.service by make nix-check. It still lets sift start
# its plugin processes and lower their RLIMIT_DATA (prlimit is in
# @system-service), reach the network and a local PostgreSQL socket, and
# run PDFium's WebAssembly compiled: wazero maps its code writable, then
# executable, so MemoryDenyWriteExecute stays off.
{
  DynamicUser = true;
  StateDirectoryMode = "0700";
  CacheDirectory = "sift";
  CacheDirectoryMode = "0700";
  UMask = "0077";

  NoNewPrivileges = true;
  CapabilityBoundingSet = "";
  AmbientCapabilities = "";
  ProtectSystem = "strict";
  ProtectHome = true;
  PrivateTmp = true;
  PrivateDevices = true;
  PrivateUsers = true;
  PrivateIPC = true;
  PrivateMounts = true;
  ProtectHostname = true;
  ProtectClock = true;
  ProtectKernelTunables = true;
  ProtectKernelModules = true;
  ProtectKernelLogs = true;
  ProtectControlGroups = true;
  ProtectProc = "invisible";
  RestrictAddressFamilies = [ "AF_INET" "AF_INET6" "AF_UNIX" ];
  RestrictNamespaces = true;
  RestrictRealtime = true;
  RestrictSUIDSGID = true;
  LockPersonality = true;
  RemoveIPC = true;
  DevicePolicy = "closed";
  KeyringMode = "private";
  SystemCallArchitectures = "native";
  SystemCallFilter = [ "@system-service" "~@privileged" ];
  SystemCallErrorNumber = "EPERM";
  LimitNOFILE = 65536;
}
