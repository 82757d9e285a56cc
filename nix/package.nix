# sift and sift-html, its HTML extractor, which sift finds beside itself in
# bin/. flake.nix passes vendorHash; make nix-check keeps it in step with
# go.sum.
{ lib, buildGoModule, vendorHash, version ? "dev", revision ? "unknown" }:
buildGoModule {
  pname = "sift";
  inherit version vendorHash;
  src = lib.cleanSourceWith {
    src = ../.;
    # The NixOS module, its tests and local build output are not part of
    # the build.
    filter = path: type:
      !(lib.elem (toString path) [ (toString ../nix) (toString ../bin) ]) && lib.cleanSourceFilter path type;
  };
  subPackages = [ "cmd/sift" "cmd/sift-html" ];
  env.CGO_ENABLED = "0";
  ldflags = [ "-s" "-w" "-X main.version=${version}" "-X main.revision=${revision}" ];
  # The suite needs PostgreSQL, Node and network namespaces; make test and
  # .ci/run run it.
  doCheck = false;
  meta = {
    description = "Fetches one web resource for an AI agent and returns it cleaned, through an SSRF guard";
    mainProgram = "sift";
    platforms = lib.platforms.linux;
  };
}
