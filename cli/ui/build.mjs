// Builds the page into dist/: one script bundle (the sources and Cytoscape.js), one style
// sheet and the HTML. The output depends only on the sources and the locked packages, so
// CI can build it again and compare it with the committed files.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'assets'), { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(dist, 'assets', 'app.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  legalComments: 'eof',
  logLevel: 'warning',
});
copyFileSync(join(here, 'src', 'app.css'), join(dist, 'assets', 'app.css'));
copyFileSync(join(here, 'src', 'icon.svg'), join(dist, 'assets', 'icon.svg'));
copyFileSync(join(here, 'src', 'index.html'), join(dist, 'index.html'));
