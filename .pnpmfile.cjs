// pnpm hooks. `beforePacking` shapes the package.json that `pnpm pack` and `pnpm publish` (so
// `changeset publish`) put in a tarball; the package.json files in the repository stay as they are.
module.exports = {
  hooks: {
    beforePacking(manifest) {
      // Development dependencies only serve this repository's builds and tests; published, they would
      // name private workspace packages (@neutral/test-support) at versions that exist nowhere.
      delete manifest.devDependencies;
      if (manifest.name === "@neutral/relay") {
        // Peers of the relay's `testing` entry, which the workspace's suites import and the
        // published package leaves out (`files`, `publishConfig.exports`).
        delete manifest.peerDependencies;
        delete manifest.peerDependenciesMeta;
      }
      return manifest;
    },
  },
};
