// `pnpm test:integration [path…] [jest options]`: the `integration` project of jest.config.js alone (see one-project.js).
module.exports = require('./one-project.js')('integration');
