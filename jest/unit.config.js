// `pnpm test:unit [path…] [jest options]`: the `unit` project of jest.config.js alone (see one-project.js).
module.exports = require('./one-project.js')('unit');
