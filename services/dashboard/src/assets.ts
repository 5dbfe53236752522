import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';

/**
 * The dashboard's one script and one stylesheet, read once at start. Revalidated on each use
 * (`no-cache` + the ETag express computes), so a new dashboard's file is picked up at once.
 */
const ASSETS = [
  { name: 'app.js', type: 'text/javascript; charset=utf-8' },
  { name: 'app.css', type: 'text/css; charset=utf-8' },
] as const;

export function assetsRouter(dir: string = path.join(__dirname, 'assets')): Router {
  const router = Router();
  for (const asset of ASSETS) {
    const body = fs.readFileSync(path.join(dir, asset.name));
    router.get(`/${asset.name}`, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.type(asset.type).send(body);
    });
  }
  return router;
}
