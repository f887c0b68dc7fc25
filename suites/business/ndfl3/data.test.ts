/**
 * Spec 4.5: what hangs off a tax request. The request data carries a state of 3.1; every read conforms
 * to the target's own served document (spec 9); a declaration edit is read back as written; a chat
 * message appears in the chat; the form's attachments can be read; document data and a tax form are
 * accepted. The payloads are "not shown" in the spec: the suite builds them (generators/business/ndfl3.ts) and
 * skips, with the reason, where the target's document describes other ones.
 */
import { describe } from 'vitest';
import { failure } from '../../../harness/checks/failure.ts';
import { statusIn } from '../../../harness/checks/status.ts';
import { ToolError } from '../../../harness/errors.ts';
import { NDFL3, sideEffectOf } from '../../../harness/business/ndfl3/api.ts';
import { containsText, valuesOfKey, writtenIsRead } from '../../../harness/business/ndfl3/checks.ts';
import { acceptedAsDocumented, bodyMisfit, conformsToServedDocument } from '../../../harness/business/ndfl3/document.ts';
import { anyState, type Goal } from '../../../harness/business/ndfl3/requests.ts';
import { stateReadFailures } from '../../../harness/business/ndfl3/state.ts';
import { assertAllowed } from '../../../harness/request/safety.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import { chatText, declarationEdit, documentData, one, taxFormUpload } from '../../../generators/business/ndfl3.ts';
import { ndfl3 } from '../../../harness/business/ndfl3/client.ts';

async function fits(t: RequirementContext, operation: string, body: unknown): Promise<void> {
  const misfit = await bodyMisfit(t, operation, body);
  if (misfit) throw new ToolError('CREDENTIAL_MISSING', misfit);
}

/** A request that may still be edited: one the configured table does not leave without a way out. */
function editable(t: RequirementContext): Goal {
  const machine = ndfl3(t, 'data').api.config.machine;
  return machine ? { describe: 'a state that is not terminal', accepts: (s) => !machine.isTerminal(s) } : anyState;
}

describe('3-NDFL request data and the served document', () => {
  requirementTest('NDF-REQ-001', async (t) => {
    const { api, source } = ndfl3(t, 'data');
    const id = await source.someId();
    const snap = await api.snapshot(id);
    const where = api.config.versionFrom === 'header' ? 'the ETag header' : `the body field ${api.config.versionField}`;
    t.expectNone(
      [
        ...stateReadFailures(snap.response, api.config.stateField!, t.id),
        ...(snap.version ? [] : [failure(t.id, `a version in ${where}`, 'none')]),
      ],
      snap.response,
    );
  });

  const reads: Array<[string, string]> = [
    ['request data', NDFL3.request],
    ['questionnaire structure', NDFL3.structure],
    ['declaration', NDFL3.declaration],
    ['chat', NDFL3.chat],
    ['v1 form', NDFL3.form],
    ['v1 form attachment', NDFL3.attachment],
  ];
  for (const [what, operation] of reads) {
    // The first read of a worker also fetches and compiles the served document: a generous budget on a busy machine.
    requirementTest('NDF-RSP-001', { row: `${what} (${operation}) conforms to the served document`, timeoutMs: 180_000 }, async (t) => {
      const { api, source } = ndfl3(t, 'data', { stateless: true });
      const id = await source.someId();
      let params: Record<string, string> | undefined;
      if (operation === NDFL3.attachment) {
        const form = await api.call(NDFL3.form, id);
        const attachmentId = valuesOfKey(form.json, 'attachmentId').find((v): v is string => typeof v === 'string');
        if (!attachmentId)
          throw new ToolError(
            'CREDENTIAL_MISSING',
            `the form of request ${id} lists no attachment (no attachmentId), so there is none to read`,
          );
        params = { attachmentId };
      }
      const res = await api.call(operation, id, { params });
      t.expectNone(
        [...statusIn(res, [200], t.id), ...(res.status === 200 ? await conformsToServedDocument(t, operation, res, t.id) : [])],
        res,
      );
    });
  }
});

describe('3-NDFL declaration, chat, form, uploads', () => {
  requirementTest('NDF-DEC-001', async (t) => {
    const { api, source } = ndfl3(t, 'data');
    await source.with(editable(t), async (h) => {
      const structure = await api.call(NDFL3.structure, h.id);
      const edit = one(declarationEdit(structure.json), t.seed);
      await fits(t, NDFL3.editDeclaration, edit);
      const put = await api.call(NDFL3.editDeclaration, h.id, { json: edit, headers: h.version ? { 'if-match': h.version } : {} });
      h.version = undefined;
      t.expectNone(
        await acceptedAsDocumented(t, NDFL3.editDeclaration, put, t.id, `PUT declaration of request ${h.id} in ${h.state}`),
        put,
      );
      const read = await api.call(NDFL3.declaration, h.id);
      t.expectNone([...statusIn(read, [200], t.id), ...writtenIsRead(t.id, edit, read.json)], read, `written: ${JSON.stringify(edit)}`);
    });
  });

  requirementTest('NDF-CHT-001', async (t) => {
    const { api, source } = ndfl3(t, 'data', { stateless: true });
    const id = await source.someId();
    const text = one(chatText(), t.seed);
    await fits(t, NDFL3.sendChat, { text });
    const sent = await api.call(NDFL3.sendChat, id, { json: { text } });
    t.expectNone(await acceptedAsDocumented(t, NDFL3.sendChat, sent, t.id, 'chat/send'), sent);
    const chat = await api.call(NDFL3.chat, id);
    const found = chat.status === 200 && containsText(chat.json, text);
    t.expectNone(
      [
        ...statusIn(chat, [200], t.id),
        ...(found ? [] : [failure(t.id, `the chat holds the message just sent: ${JSON.stringify(text)}`, 'no such message in the chat')]),
      ],
      chat,
    );
  });

  // The request's state read first is the control: a target that answers 200 to everything has no
  // request of 3.1 to show (NDF-REQ-001's subject, which these take as given).
  requirementTest('NDF-FRM-001', async (t) => {
    const { api, source } = ndfl3(t, 'data');
    await source.with(anyState, async (h) => {
      const form = await api.call(NDFL3.form, h.id);
      t.expectNone(
        [
          ...statusIn(form, [200], t.id),
          ...(form.json !== undefined ? [] : [failure(t.id, 'a JSON form', form.jsonError ?? 'an empty body')]),
        ],
        form,
      );
      const ids = valuesOfKey(form.json, 'attachmentId').filter((v): v is string => typeof v === 'string');
      if (!ids.length)
        throw new ToolError('CREDENTIAL_MISSING', `the form of request ${h.id} lists no attachment (no attachmentId), so none can be read`);
      for (const attachmentId of ids.slice(0, 3)) {
        const res = await api.call(NDFL3.attachment, h.id, { params: { attachmentId } });
        t.expectNone(
          [
            ...statusIn(res, [200], t.id),
            ...(res.json !== undefined ? [] : [failure(t.id, 'a JSON attachment', res.jsonError ?? 'an empty body')]),
          ],
          res,
          `attachment ${attachmentId} listed by the form`,
        );
      }
    });
  });

  requirementTest('NDF-UPL-001', async (t) => {
    const { api, source } = ndfl3(t, 'data');
    await source.with(anyState, async (h) => {
      const body = one(documentData(), t.seed);
      await fits(t, NDFL3.documentData, body);
      const res = await api.call(NDFL3.documentData, h.id, { json: body });
      t.expectNone(await acceptedAsDocumented(t, NDFL3.documentData, res, t.id, 'document data'), res);
    });
  });

  requirementTest('NDF-UPL-002', async (t) => {
    assertAllowed(t.target, sideEffectOf(NDFL3.upload), NDFL3.upload);
    const { api, source } = ndfl3(t, 'data');
    await source.with(editable(t), async (h) => {
      const body = taxFormUpload(new Date().getUTCFullYear() - 1);
      await fits(t, NDFL3.upload, body);
      const res = await api.call(NDFL3.upload, h.id, { json: body });
      t.expectNone(await acceptedAsDocumented(t, NDFL3.upload, res, t.id, 'the tax-form upload'), res);
    });
  });
});
