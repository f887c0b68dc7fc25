/** Batch runs side by side: never more at a time than asked, started in order, reported in order. */
import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import type { Variation } from '../../sandbox/faults/types.ts';
import { batchesOf } from './common.ts';
import { batchesAtOnce, FIRST, inOrder, OrderedLog, Slots } from './pool.ts';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('inOrder', () => {
  it('runs at most `limit` at a time, starts them in order, and reports each in order as soon as the earlier ones are done', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const events: string[] = [];
    // The second item takes longest: the third and fourth finish first and wait for it to be reported.
    const delays = [10, 60, 5, 5, 5];
    await inOrder(
      delays.map((_, i) => i),
      2,
      async (i) => {
        started.push(i);
        most = Math.max(most, ++running);
        await later(delays[i]);
        running--;
        events.push(`done ${i}`);
        return i * 10;
      },
      (i, result) => events.push(`report ${i}=${result}`),
    );
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    const reports = events.filter((e) => e.startsWith('report'));
    expect(reports).toEqual(['report 0=0', 'report 1=10', 'report 2=20', 'report 3=30', 'report 4=40']);
    // Item 0 was reported before item 1 finished, not after the whole pool.
    expect(events.indexOf('report 0=0')).toBeLessThan(events.indexOf('done 1'));
  });

  it('one at a time is one after the other', async () => {
    const events: string[] = [];
    await inOrder(
      [1, 2, 3],
      1,
      async (i) => {
        events.push(`start ${i}`);
        await later(1);
        events.push(`end ${i}`);
        return i;
      },
      () => undefined,
    );
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('a failed run is thrown where it is reported', async () => {
    const reported: number[] = [];
    const run = inOrder(
      [1, 2],
      2,
      async (i) => {
        if (i === 2) throw new Error('batch 2 broke');
        return i;
      },
      (i) => reported.push(i),
    );
    await expect(run).rejects.toThrow('batch 2 broke');
    expect(reported).toEqual([1]);
  });
});

describe('batchesAtOnce', () => {
  it('is what is asked, at least one, one per core and one more by default', () => {
    expect(batchesAtOnce(3)).toBe(3);
    expect(batchesAtOnce(0)).toBe(1);
    expect(batchesAtOnce()).toBe(availableParallelism() + 1);
  });
});

describe('batchesOf', () => {
  const variants = [
    ...Array.from({ length: 19 }, (_, i): Variation => ({ id: `b${i}`, area: 'business', description: '' })),
    ...Array.from({ length: 41 }, (_, i): Variation => ({ id: `s${i}`, area: 'speech', description: '' })),
  ];
  it('cuts each area into batches of at most the size, of about equal size, in order', () => {
    const batches = batchesOf(variants, 40);
    expect(batches.map((b) => b.length)).toEqual([19, 21, 20]);
    expect(batches.map((b) => new Set(b.map((v) => v.area)).size)).toEqual([1, 1, 1]);
    expect(batches.flat()).toEqual(variants);
  });
  it('takes a size per area', () => {
    const batches = batchesOf(variants, (area) => (area === 'business' ? 10 : 40));
    expect(batches.map((b) => `${b[0].area} ${b.length}`)).toEqual(['business 10', 'business 9', 'speech 21', 'speech 20']);
    expect(batches.flat()).toEqual(variants);
    expect(batchesOf(variants, 0).length).toBe(variants.length);
  });
});

describe('Slots shared by two runs', () => {
  it('never run more than the limit together, and hand out slots in the order they were asked for', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: string[] = [];
    const job = (name: string, ms: number) => async () => {
      started.push(name);
      most = Math.max(most, ++running);
      await later(ms);
      running--;
      return name;
    };
    const first = inOrder(
      ['a1', 'a2', 'a3'],
      slots,
      (n) => job(n, 20)(),
      () => undefined,
    );
    const second = inOrder(
      ['b1', 'b2'],
      slots,
      (n) => job(n, 5)(),
      () => undefined,
    );
    const alone = slots.use(job('c', 1));
    await Promise.all([first, second, alone]);
    expect(most).toBe(2);
    expect(started).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c']);
  });

  it('hand a free slot to the lowest rank first', async () => {
    const slots = new Slots(1);
    const started: string[] = [];
    const job = (name: string) => async () => {
      started.push(name);
      await later(2);
    };
    await Promise.all([
      slots.use(job('first')),
      slots.ranked(1).use(job('late 1')),
      slots.ranked(0).use(job('soon 1')),
      slots.ranked(1).use(job('late 2')),
      slots.ranked(0).use(job('soon 2')),
      slots.ranked(1).use(job('longest, of a late user'), FIRST),
    ]);
    expect(started).toEqual(['first', 'longest, of a late user', 'soon 1', 'soon 2', 'late 1', 'late 2']);
  });

  it('a run that throws gives its slot back', async () => {
    const slots = new Slots(1);
    await expect(
      slots.use(async () => {
        throw new Error('broke');
      }),
    ).rejects.toThrow('broke');
    expect(await slots.use(async () => 'next')).toBe('next');
  });
});

describe('OrderedLog', () => {
  it('prints the first section at once and each later one after every earlier one ended', () => {
    const printed: string[] = [];
    const out = new OrderedLog((line) => printed.push(line));
    const [a, b, c] = [out.section(), out.section(), out.section()];
    c.log('c1');
    b.log('b1');
    a.log('a1');
    expect(printed).toEqual(['a1']);
    c.end();
    b.log('b2');
    expect(printed).toEqual(['a1']);
    a.end();
    expect(printed).toEqual(['a1', 'b1', 'b2']);
    b.log('b3');
    b.end();
    expect(printed).toEqual(['a1', 'b1', 'b2', 'b3', 'c1']);
    const d = out.section();
    d.log('d1');
    expect(printed).toEqual(['a1', 'b1', 'b2', 'b3', 'c1', 'd1']);
  });
});
