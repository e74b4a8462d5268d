/**
 * deploy/ (issue 32 §4) cannot be run here (no Docker on the development machine): this checks what
 * it can, so the files do not drift from the code. The compose file parses and wires its services;
 * every environment name the compose file, the env template, the Dockerfile and the systemd unit set
 * is one the server reads; the image and the unit start what `npm run serve` starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const config = read('apps/server/src/config.ts');
const serve = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.serve!;

/** Names set for the server that config.ts does not read, and the file that does read each. */
const readElsewhere: Record<string, string> = {
  NODE_ENV: 'apps/server/src/main.ts',
};

function expectRead(names: string[], where: string) {
  expect(names.length, where).toBeGreaterThan(3);
  for (const name of names) {
    if (readElsewhere[name]) expect(read(readElsewhere[name]), `${name} (${where})`).toContain(`process.env.${name}`);
    else expect(config, `${name} (${where}) is not read by config.ts`).toMatch(new RegExp(`env\\.${name}\\b`));
  }
}

interface Compose {
  services: Record<
    string,
    {
      image?: string;
      build?: { context: string; dockerfile: string };
      environment?: Record<string, string>;
      depends_on?: Record<string, unknown>;
      secrets?: string[];
    }
  >;
  secrets: Record<string, { file: string }>;
}

describe('deploy/', () => {
  const compose = parse(read('deploy/compose.yaml')) as Compose;

  it('compose: the server built from deploy/Dockerfile, beside PostgreSQL and MinIO, its secret a file', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['minio', 'minio-bucket', 'postgres', 'server']);
    const server = compose.services.server!;
    const context = path.resolve(root, 'deploy', server.build!.context);
    expect(context).toBe(root);
    expect(fs.existsSync(path.join(context, server.build!.dockerfile))).toBe(true);
    expect(Object.keys(server.depends_on!).sort()).toEqual(['minio-bucket', 'postgres']);
    expect(server.secrets).toEqual(['data_key']);
    expect(server.environment!.DATA_KEY_FILE).toBe('/run/secrets/data_key');
    expect(compose.secrets.data_key!.file).toBe('./data_key');
    expect(read('.gitignore')).toMatch(/^deploy\/data_key$/m);
    // The oldest PostgreSQL npm run doctor accepts.
    const min = Number(/MIN_POSTGRES = (\d+)/.exec(read('apps/server/src/ops/doctor.ts'))![1]);
    expect(Number(/^postgres:(\d+)/.exec(compose.services.postgres!.image!)![1])).toBeGreaterThanOrEqual(min);
  });

  it('every environment name they set is read by the server', () => {
    expectRead(Object.keys(compose.services.server!.environment!), 'compose.yaml');
    expectRead(
      [...read('deploy/xinli.env.example').matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!),
      'xinli.env.example',
    );
    const dockerfile = read('deploy/Dockerfile');
    const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)![1]!;
    expectRead(
      [...env.matchAll(/([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!),
      'Dockerfile',
    );
  });

  it('the image and the systemd unit start what npm run serve starts', () => {
    const command = serve.replace(/^node /, '');
    const dockerfile = read('deploy/Dockerfile');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(cmd.join(' ')).toBe(`node ${command}`);
    expect(read('deploy/systemd/xinli.service')).toMatch(new RegExp(`^ExecStart=/usr/bin/node ${command.replace(/[.]/g, '\\.')}$`, 'm'));
    // Debian's Chromium for the PDFs, pg_dump for npm run backup.
    expect(dockerfile).toMatch(/apt-get install .*\bchromium\b.*\bpostgresql-client\b/);
    for (const [, from] of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm))
      for (const file of from!.split(' ')) if (file !== '.') expect(fs.existsSync(path.join(root, file)), file).toBe(true);
  });
});
