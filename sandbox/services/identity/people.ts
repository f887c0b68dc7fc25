/**
 * The sandbox's people: generated with a Russian-locale faker from fixed seeds, so every start of the
 * sandbox serves the same people. Everyone in the pool consented to share full name, e-mail and phone
 * number (spec 4.2), so everyone has them; some lack other data on purpose (no patronymic, no birthdate
 * and gender, no combined `name` beside family and given name, no *_verified flags): the userinfo set
 * "is not a fixed list" (spec 2.2) and a client must cope.
 */
import type { Faker } from '@faker-js/faker';
// The Russian locale (over English and the base) without the package's index, which loads every locale.
import { faker as ruLocale } from '@faker-js/faker/locale/ru';

export interface Person {
  sub: string;
  familyName: string;
  givenName: string;
  /** false: the combined `name` claim is not kept, only family and given name. */
  hasFullName: boolean;
  middleName?: string;
  gender?: 'male' | 'female';
  birthdate?: string;
  phoneNumber?: string;
  phoneNumberVerified?: boolean;
  email?: string;
  emailVerified?: boolean;
  /** Postal address: never served unless a fault leaks it (no address scope exists here). */
  address: string;
  consented: boolean;
}

type Missing = 'middleName' | 'email' | 'phone' | 'birthdateAndGender' | 'fullName' | 'verifiedFlags';

interface Shape {
  seed: number;
  missing?: Missing[];
  birthdate?: string;
  verified?: boolean;
  consented?: boolean;
}

// An instance of its own (of the locale instance's class, which the locale module does not export): the
// locale module's shared one may be seeded by a generator in the same process.
const OwnFaker = ruLocale.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
const faker = new OwnFaker({ locale: ruLocale.rawDefinitions });

function makePerson(index: number, shape: Shape): Person {
  faker.seed(shape.seed);
  const sex = index % 2 === 0 ? 'male' : 'female';
  const familyName = faker.person.lastName(sex);
  const givenName = faker.person.firstName(sex);
  const middleName = faker.person.middleName(sex);
  const born = faker.date.birthdate({ mode: 'year', min: 1950, max: 2005 }).toISOString().slice(0, 10);
  const phone = `+79${faker.string.numeric(9)}`;
  const email = faker.internet.email({ firstName: givenName, lastName: familyName }).toLowerCase();
  const missing = new Set(shape.missing ?? []);
  const verified = shape.verified ?? true;
  return {
    sub: faker.string.uuid(),
    familyName,
    givenName,
    hasFullName: !missing.has('fullName'),
    ...(missing.has('middleName') ? {} : { middleName }),
    ...(missing.has('birthdateAndGender') ? {} : { gender: sex, birthdate: shape.birthdate ?? born }),
    ...(missing.has('phone') ? {} : { phoneNumber: phone, ...(missing.has('verifiedFlags') ? {} : { phoneNumberVerified: verified }) }),
    ...(missing.has('email') ? {} : { email, ...(missing.has('verifiedFlags') ? {} : { emailVerified: verified }) }),
    address: `${faker.location.city()}, ${faker.location.streetAddress(true)}`,
    consented: shape.consented ?? true,
  };
}

/** The main development user: full data, born on a leap day (a valid date that lenient checkers get wrong). */
export const MAIN_PERSON = makePerson(0, { seed: 1000, birthdate: '1988-02-29' });

const POOL_SHAPES: Shape[] = [
  { seed: 2001 },
  { seed: 2002, missing: ['middleName'] },
  { seed: 2003, missing: ['fullName'] },
  { seed: 2004, missing: ['middleName', 'fullName'] },
  { seed: 2005, missing: ['birthdateAndGender'] },
  { seed: 2006, verified: false },
  { seed: 2007, missing: ['verifiedFlags'] },
  { seed: 2008, birthdate: '2000-02-29' },
];
/** The pool of consenting people behind services.identity.tokens.people, in that order. */
export const POOL: Person[] = POOL_SHAPES.map((shape, i) => makePerson(i + 1, shape));

/** A user who has not consented to share full name, e-mail and phone number (spec 4.2). */
export const UNCONSENTED_PERSON = makePerson(9, { seed: 3000, consented: false });
