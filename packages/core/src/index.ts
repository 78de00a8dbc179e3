// @approval-conformance/core: the contract. It knows no framework. The root holds all three parts; an adapter
// imports only the contract (`@approval-conformance/core/contract`) and the kit (`@approval-conformance/core/kit`),
// and the runner the explorer (`@approval-conformance/core/explorer`) too.
export * from './contract.js';
export * from './kit.js';
export * from './explorer.js';
