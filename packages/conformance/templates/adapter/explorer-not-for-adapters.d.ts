// What this adapter's build sees for `@approval-conformance/core` and `@approval-conformance/core/explorer`: nothing.
// An adapter imports the contract (`@approval-conformance/core/contract`) and the kit (`@approval-conformance/core/kit`)
// only; the explorer's scheduler and exploration are the runner's. tsconfig.json maps the two names here (`paths`), so
// an import of them fails the build with "has no exported member". The tests may import them.
export {};
