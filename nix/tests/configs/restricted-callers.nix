# Two teams and a restricted caller, on a public address behind no dev key,
# with a larger memory budget and a state directory of its own.
{
  services.sift = {
    enable = true;
    listen = "0.0.0.0:8890";
    dataDir = "/var/lib/sift-agents";
    memoryMax = "8G";
    tasksMax = 1024;
    callers = {
      research = {
        keySha256 = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7";
        workspace = "research";
      };
      support = {
        keySha256 = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
        workspace = "support";
        restricted = true;
      };
    };
  };
}
