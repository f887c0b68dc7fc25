/**
 * Realistic values by name, for schema annotations `x-generate: { faker: <name> }`. Each is a pure
 * function of a fast-check-chosen seed, so shrinking and replay stay deterministic.
 */
// The two locales used, not the package's index, which loads every locale (a few hundred ms in each worker).
import { faker } from '@faker-js/faker/locale/en';
import { faker as fakerRU } from '@faker-js/faker/locale/ru';
import fc from 'fast-check';

type Maker = (f: typeof faker) => string;

const MAKERS: Record<string, Maker> = {
  contractId: (f) =>
    `${f.helpers.arrayElement(['INV', 'UNI', 'LIFE', 'NSG'])}-${f.date.past({ years: 5 }).getFullYear()}-${f.string.numeric(8)}`,
  personName: (f) => fakerRU.person.fullName({ sex: f.helpers.arrayElement(['female', 'male']) }),
  phone: () => `+7${fakerRU.string.numeric(10)}`,
  email: (f) => f.internet.email().toLowerCase(),
  companyName: () => fakerRU.company.name(),
  sentence: (f) => f.lorem.sentence(),
  issuerSystem: (f) => `${f.internet.domainWord()}-backend.${f.internet.domainName()}`,
  endUserId: (f) => f.helpers.arrayElement([f.string.uuid(), f.internet.username(), f.string.numeric(10)]),
  sessionId: (f) => f.string.alphanumeric({ length: { min: 16, max: 40 } }),
  familyName: (f) => fakerRU.person.lastName(f.helpers.arrayElement(['female', 'male'])),
  givenName: (f) => fakerRU.person.firstName(f.helpers.arrayElement(['female', 'male'])),
  patronymic: (f) => fakerRU.person.middleName(f.helpers.arrayElement(['female', 'male'])),
  gender: (f) => f.helpers.arrayElement(['female', 'male']),
  figi: (f) => `BBG${f.string.alphanumeric({ length: 9, casing: 'upper' })}`,
  ticker: (f) => f.string.alpha({ length: { min: 3, max: 5 }, casing: 'upper' }),
  instrumentType: (f) => f.helpers.arrayElement(['share', 'bond', 'etf', 'currency', 'futures', 'option', 'sp']),
  utcDateTime: (f) => f.date.between({ from: '2020-01-01T00:00:00Z', to: '2035-12-31T23:59:59Z' }).toISOString(),
  url: (f) => `https://${f.internet.domainName()}/${f.string.alphanumeric({ length: { min: 0, max: 12 } })}`,
  base64: (f) => Buffer.from(f.lorem.words({ min: 1, max: 6 })).toString('base64'),
  hostname: (f) => f.internet.domainName(),
  ipv4: (f) => f.internet.ipv4(),
  isoTime: (f) => `${f.date.anytime().toISOString().slice(11, 19)}Z`,
};

export function realisticNames(): string[] {
  return Object.keys(MAKERS);
}

export function realistic(name: string): fc.Arbitrary<string> {
  const make = MAKERS[name];
  if (!make) throw new Error(`x-generate.faker: unknown realistic value "${name}"; known: ${realisticNames().join(', ')}`);
  return fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
    faker.seed(seed);
    fakerRU.seed(seed);
    return make(faker);
  });
}
