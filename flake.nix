{
  description = "sift: fetches one web resource for an AI agent, cleaned, through an SSRF guard";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" ];
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
      # go.mod asks for Go 1.26.
      goFor = pkgs: pkgs.go_1_26 or pkgs.go;
      # The NAR hash of `go mod vendor`'s output; make nix-check fails when
      # go.sum, or the plugin SDK vendored from plugins/sdk, moves without it.
      vendorHash = "sha256-Jmn/5Yh+rFa93bp7HVEm9stlehqhj8TRZadmG5qo0nw=";
      version = self.shortRev or self.dirtyShortRev or "dev";
      # sift_build_info's revision label.
      revision = self.rev or self.dirtyRev or "unknown";
    in
    {
      packages = forAllSystems (pkgs: rec {
        sift = pkgs.callPackage ./nix/package.nix {
          inherit vendorHash version revision;
          buildGoModule = pkgs.buildGoModule.override { go = goFor pkgs; };
        };
        default = sift;
      });

      apps = forAllSystems (pkgs: rec {
        sift = {
          type = "app";
          program = "${self.packages.${pkgs.stdenv.hostPlatform.system}.sift}/bin/sift";
        };
        default = sift;
      });

      nixosModules = rec {
        sift = { lib, pkgs, ... }: {
          imports = [ ./nix/module.nix ];
          services.sift.package = lib.mkDefault self.packages.${pkgs.stdenv.hostPlatform.system}.sift;
        };
        default = sift;
      };

      devShells = forAllSystems (pkgs: {
        default = pkgs.mkShell {
          packages = [
            (goFor pkgs)
            pkgs.protobuf # make proto
            pkgs.python3 # the extraction benchmark harness
            pkgs.nodejs # the Firecrawl JS SDK checks
            pkgs.postgresql # internal/testkit/pgtest starts its own server
            pkgs.iproute2 # the SSRF suite's network namespace
            pkgs.util-linux
            pkgs.curl
            pkgs.nix # make nix-check
            pkgs.systemd # systemd-analyze for deploy/sift.service
          ];
        };
      });
    };
}
