# Renders Nix values as the HCL sift reads. An attribute set inside a body
# is a block named after its attribute; everything else is an attribute.
# Strings are escaped, including HCL's template openers, so a value is never
# interpolated.
{ lib }:
let
  inherit (lib) attrNames concatMapStrings concatMapStringsSep filter isAttrs isBool
    isFloat isInt isList isString replaceStrings;

  identifier = name:
    if builtins.match "[A-Za-z_][A-Za-z0-9_-]*" name != null then name
    else throw "sift HCL: `${name}` is not an HCL attribute or block name";

  string = s: "\"" + replaceStrings
    [ "\\" "\"" "\n" "\r" "\t" "\${" "%{" ]
    [ "\\\\" "\\\"" "\\n" "\\r" "\\t" "$\${" "%%{" ]
    s + "\"";

  value = v:
    if isString v then string v
    else if isBool v then (if v then "true" else "false")
    else if isInt v || isFloat v then toString v
    else if isList v then "[" + concatMapStringsSep ", " value v + "]"
    else throw "sift HCL: cannot render a ${builtins.typeOf v} as an attribute value";

  # Attributes first, then nested blocks; null means "leave sift's default".
  body = indent: attrs:
    let
      names = filter (n: attrs.${n} != null) (attrNames attrs);
      scalars = filter (n: !isAttrs attrs.${n}) names;
      blocks = filter (n: isAttrs attrs.${n}) names;
    in
    concatMapStrings (n: "${indent}${identifier n} = ${value attrs.${n}}\n") scalars
    + concatMapStrings (n: block indent n [ ] attrs.${n}) blocks;

  block = indent: type: labels: attrs:
    let inner = body (indent + "  ") attrs; in
    "${indent}${identifier type}${concatMapStrings (l: " ${string l}") labels} {"
    + (if inner == "" then "}\n" else "\n${inner}${indent}}\n");
in
{
  inherit value body string;
  block = block "";
  blockAt = block;
}
