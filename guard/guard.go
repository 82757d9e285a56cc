// Package guard is sift's wall between agents and the private network: it
// refuses URLs sift must never fetch (anything in an odd form, disallowed
// schemes and ports, and every host that is or resolves to an address that
// is not global), and it provides the only way sift connects outside, a
// transport that dials nothing but the addresses it vetted.
// ARCHITECTURE.md, "The guard", says why each rule is as strict as it is.
//
// The guard stage (stages/guard) runs it on every request; fetch, the
// search backends and the CLI's `sift guard` use it directly.
package guard
