# Evaluates services.sift offline for the tests: nixpkgs' lib only, with
# stand-ins for the NixOS options the module sets and for the few pkgs
# functions it calls. Failed assertions throw as they do in a NixOS build.
#
#   nix-instantiate --eval --strict --json nix/tests/eval.nix --arg configuration ./configs/minimal.nix
{ configuration }:
let
  lib = import ./nixpkgs-lib/lib;
  store = name: "/nix/store/00000000000000000000000000000000-${name}";

  pkgs = {
    # A file's path names its text, as a real store path does: a changed
    # configuration is another path.
    runCommand = name: env: _script: store "${builtins.substring 0 8 (builtins.hashString "sha256" (env.text or ""))}-${name}";
    writeShellScript = name: _text: store name;
  };

  sift = {
    type = "derivation";
    name = "sift";
    outPath = store "sift";
  };

  evaluated = lib.evalModules {
    modules = [
      ../module.nix
      ./stand-ins.nix
      configuration
      {
        _module.args.pkgs = pkgs;
        services.sift.package = sift;
      }
    ];
  };

  failed = map (a: a.message) (lib.filter (a: !a.assertion) evaluated.config.assertions);
  config =
    if failed == [ ] then evaluated.config
    else throw "\nFailed assertions:\n${lib.concatMapStrings (m: "- ${m}\n") failed}";
in
{
  unit = config.systemd.services.sift;
  hcl = config.services.sift.renderedConfig;
  startScript = config.services.sift.startScript;
  reloadScript = config.services.sift.reloadScript;
  etc = config.environment.etc;
  hardening = import ../hardening.nix;
}
