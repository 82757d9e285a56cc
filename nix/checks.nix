# What services.sift refuses at evaluation: secrets as option values (they
# would land in the world-readable Nix store) and the shipped development
# key on an address beyond loopback (the rule `sift serve` applies).
{ lib }:
let
  inherit (lib) any concatLists hasPrefix hasSuffix isAttrs isString mapAttrsToList;

  # SHA-256 of "sift-dev-key", the shipped caller's key.
  devKeySha256 = "4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea";

  # "127.0.0.1:8890" -> "127.0.0.1", "[::1]:8890" -> "::1".
  listenHost = listen:
    let
      bracketed = builtins.match "[[](.*)[]]:[0-9]*" listen;
      plain = builtins.match "([^:]*):[0-9]*" listen;
    in
    if bracketed != null then builtins.head bracketed
    else if plain != null then builtins.head plain
    else listen;

  isLoopback = host: host == "localhost" || host == "::1"
    || builtins.match "127[.][0-9]+[.][0-9]+[.][0-9]+" host != null;

  # Names of attributes that hold a secret themselves; *_env names a
  # variable that holds it instead.
  secretName = name: builtins.match "(.*_)?(api_key|key|password|passwd|secret|token|bearer)" name != null;
  envName = v: isString v && builtins.match "[A-Za-z_][A-Za-z0-9_]*" v != null;
  # A DSN with a password in it (key=value or URL form).
  dsnHasPassword = v: isString v
    && (builtins.match "(.*[[:space:]])?password[[:space:]]*=.*" v != null
      || builtins.match "[a-z]+://[^/@:]*:[^/@]*@.*" v != null);

  # Every problem in a block (attribute set), each as a sentence naming the
  # option path.
  blockProblems = path: attrs: concatLists (mapAttrsToList
    (name: v:
      let at = "${path}.${name}"; in
      if isAttrs v then blockProblems at v
      else if hasSuffix "_env" name && v != null && !envName v then
        [ "${at} must name an environment variable (like BRAVE_API_KEY), not hold the secret itself" ]
      else if secretName name && v != null then
        [ "${at} would put a secret in the Nix store: use a *_env attribute naming a variable set by services.sift.environmentFile or services.sift.credentials" ]
      else if name == "dsn" && dsnHasPassword v then
        [ "${at} holds a password, which would land in the Nix store: set dsn_env and put the DSN in services.sift.environmentFile" ]
      else [ ])
    (removeAttrs attrs [ "_module" ]));

  # extraConfig is raw HCL: look for an attribute that holds a secret.
  extraConfigProblems = text:
    let
      lines = lib.splitString "\n" text;
      secretLine = l: builtins.match "[[:space:]]*(.*_)?(api_key|key|password|passwd|secret|token|bearer)[[:space:]]*=.*" l != null;
      dsnLine = l:
        let m = builtins.match "[[:space:]]*dsn[[:space:]]*=[[:space:]]*\"(.*)\".*" l; in
        m != null && dsnHasPassword (builtins.head m);
    in
    lib.optional (any secretLine lines)
      "services.sift.extraConfig sets a secret, which would land in the Nix store: name a variable with a *_env attribute instead"
    ++ lib.optional (any dsnLine lines)
      "services.sift.extraConfig has a DSN with a password, which would land in the Nix store: use dsn_env";

  callerProblems = cfg: concatLists (mapAttrsToList
    (name: c:
      lib.optional (builtins.match "[0-9a-f]{64}" c.keySha256 == null)
        "services.sift.callers.${name}.keySha256 must be the SHA-256 of the key in lowercase hex (`sift key new ${name}` prints both), never the key itself"
      ++ lib.optional (c.keySha256 == devKeySha256 && !isLoopback (listenHost cfg.listen))
        "services.sift.callers.${name} holds the development key sift-dev-key, so sift may listen only on loopback (listen = \"${cfg.listen}\"): give it a key from `sift key new ${name}`")
    cfg.callers);

  problems = cfg:
    callerProblems cfg
    ++ lib.optional (lib.hasInfix devKeySha256 cfg.extraConfig && !isLoopback (listenHost cfg.listen))
      "services.sift.extraConfig gives a caller the development key sift-dev-key, so sift may listen only on loopback (listen = \"${cfg.listen}\")"
    ++ blockProblems "services.sift.store" cfg.store
    ++ concatLists (lib.imap0 (i: s: blockProblems "services.sift.pipeline.${toString i}" s) cfg.pipeline)
    ++ concatLists (mapAttrsToList (n: b: blockProblems "services.sift.extractors.${n}" b) (lib.filterAttrs (_: b: b != null) cfg.extractors))
    ++ concatLists (mapAttrsToList (n: b: blockProblems "services.sift.digesters.${n}" b) cfg.digesters)
    ++ concatLists (mapAttrsToList (n: b: blockProblems "services.sift.contexts.${n}" b) cfg.contexts)
    ++ lib.optionals (cfg.search != null) (blockProblems "services.sift.search" cfg.search)
    ++ blockProblems "services.sift.batch" cfg.batch
    ++ extraConfigProblems cfg.extraConfig
    ++ lib.optional (cfg.environmentFile != null && hasPrefix builtins.storeDir cfg.environmentFile)
      "services.sift.environmentFile is in the Nix store, readable by every user: keep it outside, e.g. in /run/secrets"
    ++ concatLists (mapAttrsToList
      (name: _: lib.optional (!envName name)
        "services.sift.credentials.${name}: a credential's name is the environment variable sift reads, so it must be one (like BRAVE_API_KEY)")
      cfg.credentials)
    ++ concatLists (mapAttrsToList
      (name: path: lib.optional (hasPrefix builtins.storeDir path)
        "services.sift.credentials.${name} is in the Nix store, readable by every user: keep it outside, e.g. in /run/secrets")
      cfg.credentials)
    ++ lib.optional (!hasPrefix "/var/lib/" cfg.dataDir)
      "services.sift.dataDir must be under /var/lib/ (it is the service's StateDirectory)";
in
{
  inherit devKeySha256 listenHost isLoopback;
  assertions = cfg: map (message: { assertion = false; inherit message; }) (problems cfg);
}
