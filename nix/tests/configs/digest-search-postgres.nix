# Digests through a local LLM, context from Honcho, search through SearXNG
# and Brave, several instances' worth of state in PostgreSQL: every secret
# reaches sift as an environment variable.
{
  services.sift = {
    enable = true;
    environmentFile = "/run/secrets/sift.env";
    credentials.HONCHO_KEY = "/run/secrets/honcho";
    callers.agents.keySha256 = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7";
    store = {
      driver = "postgres";
      dsn_env = "SIFT_DSN";
    };
    pipeline = [
      { kind = "guard"; allow_ports = [ 80 443 ]; }
      { kind = "fetch"; timeout = "20s"; max_body = "5MiB"; }
      { kind = "extract"; }
      { kind = "cache"; ttl = "24h"; }
      { kind = "digest"; }
      { kind = "context"; }
    ];
    digesters.llm = {
      endpoint = "http://127.0.0.1:8080/v1";
      model = "qwen3-4b";
      flavor = "llamacpp";
      max_tokens = 1500;
      context_tokens = 8192;
      timeout = "60s";
    };
    contexts.honcho = {
      url = "http://127.0.0.1:8000";
      api_key_env = "HONCHO_KEY";
      limit = 5;
      timeout = "3s";
    };
    search = {
      timeout = "8s";
      allow_cidrs = [ "127.0.0.0/8" ];
      allow_ports = [ 8888 ];
      searxng.url = "http://127.0.0.1:8888";
      brave.api_key_env = "BRAVE_API_KEY";
      embed = {
        endpoint = "http://127.0.0.1:11434/v1";
        model = "nomic-embed-text";
      };
    };
    batch = {
      workers = 2;
      claim_lease = "30s";
    };
    extraConfig = ''
      extractor "json" {
        pool = 1
      }
    '';
  };
}
