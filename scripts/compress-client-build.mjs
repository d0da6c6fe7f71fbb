// Run by `npm run build` last: writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy
// beside every text file of the browser's build under build/client/assets, which the server sends
// to a browser that accepts them (server/client-files.ts, decision 066). Compressed once here at the
// highest settings, the scripts are about 14% smaller than the on-the-fly Brotli the compression
// middleware can afford per request, which spends its time on pages instead.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const assets = path.resolve(import.meta.dirname, "..", "build", "client", "assets");
/** The files worth compressing: fonts (woff2) and pictures in binary formats are compressed already. */
const TEXT = /\.(js|css|svg|json)$/;

let before = 0;
let brotli = 0;
for (const name of fs.readdirSync(assets)) {
  if (!TEXT.test(name)) continue;
  const file = path.join(assets, name);
  const content = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(content, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: zlib.constants.Z_BEST_COMPRESSION }));
  before += content.length;
  brotli += br.length;
}
process.stdout.write(
  `Client build compressed: ${Math.round(before / 1024)} KB of scripts and styles, ${Math.round(brotli / 1024)} KB with Brotli.\n`,
);
