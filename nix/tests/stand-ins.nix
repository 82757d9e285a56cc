# Stand-ins for the NixOS options services.sift sets, which
# lib.evalModules does not know without NixOS.
{ lib, ... }: {
  options = {
    assertions = lib.mkOption {
      type = lib.types.listOf lib.types.unspecified;
      default = [ ];
    };
    environment.etc = lib.mkOption {
      type = lib.types.attrsOf lib.types.anything;
      default = { };
    };
    systemd.services = lib.mkOption {
      type = lib.types.attrsOf lib.types.anything;
      default = { };
    };
  };
}
