# Evaluates flake.nix's outputs with a stand-in nixpkgs: nixpkgs' lib and
# a buildGoModule that returns its arguments, so the tests can check what
# the package is built from and that nixosModules.default wires the
# package into services.sift.
#
#   nix-instantiate --eval --strict --json nix/tests/flake-outputs.nix
let
  lib = import ./nixpkgs-lib/lib;
  system = "x86_64-linux";

  goModule = go: args: args // {
    type = "derivation";
    name = "${args.pname}-${args.version}";
    outPath = "/nix/store/00000000000000000000000000000000-${args.pname}";
    goName = go.name;
  };

  pkgs = {
    inherit lib;
    stdenv.hostPlatform.system = system;
    go = { name = "go-default"; };
    go_1_26 = { name = "go-1.26"; };
    buildGoModule = {
      __functor = _: goModule pkgs.go;
      override = { go }: goModule go;
    };
    callPackage = path: args: import path ({ inherit lib; } // args);
    mkShell = { packages }: { shellPackages = map (p: p.name or "?") packages; };
  } // lib.genAttrs [ "protobuf" "python3" "nodejs" "postgresql" "iproute2" "util-linux" "curl" "nix" "systemd" ]
    (name: { inherit name; });

  nixpkgs = {
    inherit lib;
    legacyPackages.${system} = pkgs;
    legacyPackages.aarch64-linux = pkgs;
  };

  flake = import ../../flake.nix;
  self = flake.outputs { inherit self nixpkgs; } // { shortRev = "abc1234"; rev = "abc1234000000000000000000000000000000000"; };

  evaluated = lib.evalModules {
    modules = [
      self.nixosModules.default
      ./stand-ins.nix
      {
        _module.args.pkgs = pkgs // {
          runCommand = name: _env: _script: "/nix/store/00000000000000000000000000000000-${name}";
        };
        services.sift.enable = true;
      }
    ];
  };
  package = self.packages.${system}.sift;
in
{
  inherit (package) pname version vendorHash subPackages ldflags goName doCheck;
  cgo = package.env.CGO_ENABLED;
  # The source leaves out the module, its tests and local binaries.
  sourceKeeps = map (dir: package.src.filter (toString ../../${dir}) "directory") [ "cmd" "plugins" "nix" "bin" ];
  defaultIsSift = self.packages.${system}.default == package;
  app = self.apps.${system}.default.program;
  moduleExecStart = evaluated.config.systemd.services.sift.serviceConfig.ExecStart;
  devShell = self.devShells.${system}.default.shellPackages;
}
