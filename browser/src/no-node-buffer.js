// Stands in for Node's `buffer` module, which rsocket-core 0.0.27's LiteBuffer.js requires: finding no Buffer in it,
// rsocket-core uses its own browser implementation (LiteBuffer) instead. CommonJS on purpose: rsocket-core reads
// `require('buffer').Buffer` through Babel's interop, which needs a plain object here.
module.exports = {};
