/**
 * One description of the target file: the schema and the typed readers of harness/config/ name the same
 * keys (TypeScript ties each reader's interface to its shape; this ties the shapes to the schema), every
 * object is closed, every key is described, the defaults agree, and the credentials are marked.
 */
import { describe, expect, it } from 'vitest';
import { BUSINESS_DEFAULTS, BUSINESS_SHAPE, NDFL3_DEFAULTS, SBP_DEFAULTS } from '../../harness/business/config.ts';
import { IDENTITY_DEFAULTS, IDENTITY_SHAPE } from '../../harness/identity/config.ts';
import { INSURANCE_SHAPE } from '../../harness/insurance/config.ts';
import { INVEST_DEFAULTS, INVEST_SHAPE } from '../../harness/invest/config.ts';
import { shapeOf, shapePaths } from '../../harness/config/shape.ts';
import { SPEECH_DEFAULTS, SPEECH_SHAPE, STREAMING_DEFAULTS } from '../../harness/speech/config.ts';
import { keyPaths, keysAt, targetFileSchema, type SchemaNode } from '../../harness/config/target-schema.ts';
import { documentedRateLimits } from '../../harness/request/rate-limits.ts';
import { workflow } from '../../harness/business/ndfl3/workflow.ts';
import { DEFAULT_SETTINGS, type TargetFileData } from '../../harness/config/target.ts';

/** The keys of a whole target file as the harness reads them: target.ts the top level, each area's reader (harness/<area>/config.ts) its service. */
const TARGET_FILE_SHAPE = shapeOf<TargetFileData>({
  name: true,
  kind: true,
  vendorConventions: true,
  strictPolicy: true,
  waivers: true,
  areas: true,
  safety: { allowDestructive: true, allowMoney: true, allowBursts: true },
  // Run settings grow with the harness: their keys are compared with DEFAULT_SETTINGS and SETTINGS_TABLE.
  settings: 'map',
  services: { speech: SPEECH_SHAPE, identity: IDENTITY_SHAPE, invest: INVEST_SHAPE, insurance: INSURANCE_SHAPE, business: BUSINESS_SHAPE },
});

const schemaPaths = () => keyPaths().map((k) => k.path);
/** Shape entries marked 'map': their keys are data, compared separately below. */
const mapPaths = (shape: object, prefix = ''): string[] =>
  Object.entries(shape).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value === 'map' ? [path] : typeof value === 'object' ? mapPaths(value, path) : [];
  });

describe('the target-file schema and the typed readers', () => {
  it('name the same keys: every key the readers read is in the schema, and every key of the schema is read', () => {
    const maps = mapPaths(TARGET_FILE_SHAPE);
    const underMap = (p: string) => maps.some((m) => p.startsWith(`${m}.`));
    const read = shapePaths(TARGET_FILE_SHAPE).sort();
    const described = schemaPaths()
      .filter((p) => !underMap(p))
      .sort();
    expect(read).toEqual(described);
  });

  it('the run settings of the schema are DEFAULT_SETTINGS (and seed), with the same defaults', () => {
    expect(keysAt(['settings'])!.sort()).toEqual([...Object.keys(DEFAULT_SETTINGS), 'seed'].sort());
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS))
      expect(keyPaths().find((k) => k.path === `settings.${key}`)?.default, key).toEqual(value);
  });

  it('the source-state table names exactly the operations and states of the workflow (specs/workflows/declaration.yaml)', () => {
    const wf = workflow();
    expect(keysAt(['services', 'business', 'ndfl3', 'sourceStates'])).toEqual(wf.operations.map((op) => op.name));
    const states = ((targetFileSchema().$defs as Record<string, SchemaNode>).ndfl3States.items as { enum: string[] }).enum;
    expect(states).toEqual(wf.states);
  });

  it('the group limits a file may declare are the groups of specs/rate-limits.yaml, and undocumented', () => {
    const { businessGroups } = documentedRateLimits() as ReturnType<typeof documentedRateLimits> & {
      businessGroups: Array<{ key: string }>;
    };
    expect(keysAt(['services', 'business', 'rateGroups'])).toEqual([...businessGroups.map((g) => g.key), 'undocumented']);
  });

  it("the readers' defaults are the schema's", () => {
    const defaults: Array<[string, Record<string, unknown>]> = [
      ['services.speech', SPEECH_DEFAULTS],
      ['services.speech.streaming', STREAMING_DEFAULTS],
      ['services.identity', IDENTITY_DEFAULTS],
      ['services.invest', INVEST_DEFAULTS],
      ['services.business', BUSINESS_DEFAULTS],
      ['services.business.ndfl3', NDFL3_DEFAULTS],
      ['services.business.rules.sbp', SBP_DEFAULTS],
    ];
    const inSchema = new Map(
      keyPaths()
        .filter((k) => k.default !== undefined && !k.path.startsWith('settings.'))
        .map((k) => [k.path, k.default]),
    );
    const inReaders = new Map(
      defaults.flatMap(([prefix, values]) => Object.entries(values).map(([key, value]) => [`${prefix}.${key}`, value] as const)),
    );
    expect(Object.fromEntries(inReaders)).toEqual(
      Object.fromEntries([...inSchema].filter(([path]) => !['vendorConventions', 'strictPolicy', 'safety.allowBursts'].includes(path))),
    );
  });
});

describe('the target-file schema itself', () => {
  it('describes every key', () => {
    expect(
      keyPaths()
        .filter((k) => !k.description)
        .map((k) => k.path),
    ).toEqual([]);
  });

  it('closes every object: an unknown key is refused at any depth', () => {
    const open: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      const n = node as SchemaNode;
      if ((n.type === 'object' || n.properties) && n.additionalProperties !== false) open.push(where);
      for (const [key, value] of Object.entries(n)) walk(value, `${where}/${key}`);
    };
    walk(targetFileSchema(), '#');
    expect(open).toEqual([]);
  });

  it('marks every credential as a secret (registered with the redactor), by its name', () => {
    const byName = /token|secret|password|apikey/i;
    const unmarked = keyPaths().filter(
      (k) => byName.test(k.path.split('.').at(-1)!) && !k.object && k.path !== 'services.speech.tokenIdClaim' && k.kind !== 'secret',
    );
    expect(unmarked.map((k) => k.path)).toEqual([]);
    expect(keyPaths().filter((k) => k.kind === 'secret').length).toBeGreaterThan(15);
  });

  it('makes mtlsUrl https and every other URL http or https', () => {
    const urls = keyPaths().filter((k) => k.kind === 'url' || k.kind === 'httpsUrl');
    expect(urls.filter((k) => k.kind === 'httpsUrl').map((k) => k.path)).toEqual(['services.business.mtlsUrl']);
    expect(urls.filter((k) => k.path.endsWith('.url'))).toHaveLength(5);
  });
});
