/**
 * 3-NDFL payloads. The spec shows none of them; these follow the vendor's shapes as the sandbox's
 * document describes them (a declaration edit is a list of answers to the questionnaire, a chat
 * message is a text, document data is a typed list of fields, a tax form is a base64 file), and each
 * suite checks them against the target's own served document before sending. Every value that a
 * round trip compares carries a fresh marker, so an edit that is not stored can never look stored.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';

export interface DeclarationEdit {
  taxYear: number;
  answers: Array<{ questionId: string; value: string }>;
}

interface Question {
  questionId: string;
  answerType?: string;
  options?: string[];
}

export const freshMarker = () => `pc-${randomBytes(5).toString('hex')}`;

/** The questions of a questionnaire structure: every object with a string questionId. */
export function questionsOf(structure: unknown): Question[] {
  const out: Question[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const q = node as Record<string, unknown>;
      if (typeof q.questionId === 'string') {
        out.push({
          questionId: q.questionId,
          answerType: typeof q.answerType === 'string' ? q.answerType : undefined,
          options: Array.isArray(q.options) ? q.options.filter((o): o is string => typeof o === 'string') : undefined,
        });
      } else Object.values(q).forEach(visit);
    }
  };
  visit(structure);
  return out;
}

function answerValue(q: Question, marker: string): fc.Arbitrary<string> {
  switch (q.answerType) {
    case 'number':
      return fc.integer({ min: 10_000, max: 9_999_999 }).map(String);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'date':
      return fc
        .date({ min: new Date('2018-01-01T00:00:00Z'), max: new Date('2025-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'choice':
      return q.options?.length ? fc.constantFrom(...q.options) : fc.constant(marker);
    case 'file':
      return fc.uuid();
    default:
      return fc
        .constantFrom('Расходы на лечение подтверждены справкой', 'Квартира куплена в ипотеку', 'Вычет за обучение ребёнка')
        .map((text) => `${text} (${marker})`);
  }
}

/**
 * An edit of the declaration: answers to some questions of `structure` (at least one), one of them a
 * free-text or otherwise fresh value carrying `marker`.
 */
export function declarationEdit(structure: unknown, marker = freshMarker()): fc.Arbitrary<DeclarationEdit> {
  const questions = questionsOf(structure);
  const pool: Question[] = questions.length
    ? questions
    : [
        { questionId: 'income.salary', answerType: 'number' },
        { questionId: 'deduction.comment', answerType: 'string' },
      ];
  const fresh = pool.find((q) => q.answerType === 'string' || q.answerType === undefined) ?? pool[0];
  const others = pool.filter((q) => q !== fresh);
  return fc
    .record({
      taxYear: fc.integer({ min: 2019, max: 2025 }),
      chosen: fc.subarray(others),
      values: fc.tuple(...others.map((q) => answerValue(q, marker))),
    })
    .map(({ taxYear, chosen, values }) => ({
      taxYear,
      answers: [
        {
          questionId: fresh.questionId,
          value: fresh.answerType === 'string' || fresh.answerType === undefined ? `Комментарий консультанту (${marker})` : marker,
        },
        ...chosen.map((q) => ({ questionId: q.questionId, value: values[others.indexOf(q)] })),
      ],
    }));
}

export function chatText(marker = freshMarker()): fc.Arbitrary<string> {
  return fc
    .constantFrom(
      'Добрый день! Пришлите, пожалуйста, справку об оплате медицинских услуг.',
      'Уточните, пожалуйста, дату регистрации права собственности.',
      'Декларация почти готова, осталось проверить сумму вычета.',
    )
    .map((text) => `${text} [${marker}]`);
}

export function documentData(attachmentId?: string): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      income: fc.integer({ min: 100_000, max: 5_000_000 }),
      agentInn: fc.stringMatching(/^\d{10}$/),
      documentType: fc.constantFrom('INCOME_CERTIFICATE', 'PAYMENT_RECEIPT', 'MEDICAL_CERTIFICATE'),
    })
    .map(({ income, agentInn, documentType }) => ({
      documentType,
      ...(attachmentId ? { attachmentId } : {}),
      fields: [
        { code: 'AMOUNT', name: 'Сумма по документу', value: String(income) },
        { code: 'ISSUER_INN', name: 'ИНН организации', value: agentInn },
      ],
    }));
}

export function taxFormUpload(taxYear: number, marker = freshMarker()): { fileName: string; mimeType: string; content: string } {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Файл ИдФайл="NO_NDFL3_${marker}" ВерсФорм="5.08"><Документ КНД="1151020" ОтчетГод="${taxYear}"/></Файл>\n`;
  return { fileName: `3-ndfl-${taxYear}-${marker}.xml`, mimeType: 'application/xml', content: Buffer.from(xml, 'utf8').toString('base64') };
}

/** One value of an arbitrary, from the run's seed (reproducible with CONFORMANCE_SEED). */
export function one<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0];
}
