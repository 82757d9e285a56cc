# The least a host sets: sift on loopback with one caller.
{
  services.sift = {
    enable = true;
    callers.agents.keySha256 = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7";
  };
}
