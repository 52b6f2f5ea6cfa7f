import { describe, expect, it } from 'vitest';
import { localizedProblem, localizedVerification } from './chain-problems.js';
import { eventName } from './chain-walk.js';

const EVENT = eventName({ seq: 42, id: '1234' });

describe('verification problems in the caller’s language', () => {
  it('translates each text the verifier writes, naming events by seq and id', () => {
    const texts = [
      `${EVENT} does not verify: modified after it was written, or forged without the chain key`,
      `event seq 7–9 is missing (deleted), before ${EVENT}`,
      `event seq 7 is missing (deleted), before ${EVENT}`,
      `${EVENT} does not link to the event before it (inserted or reordered)`,
      `events after seq 40 are missing: a checkpoint signed at 2026-12-02T10:00:00.000Z covers 45 events (newest events deleted; the checkpoint is gone from the database, its exported copy remains)`,
      `events after seq 40 are missing: the chain head records 40 events (newest events deleted)`,
      `checkpoint at seq 12 has an invalid signature (forged or signed with another key)`,
      `the purge boundary at seq 9 does not match the archived range ending there (none): moved or forged`,
    ];
    for (const text of texts) {
      const zh = localizedProblem(text, 'zh-CN');
      expect(zh, text).not.toBe(text);
      expect(zh).not.toMatch(/[{}]|does not|missing|event seq/);
    }
    expect(localizedProblem(texts[0]!, 'zh-CN')).toBe(
      '事件（序号 42，ID 1234）校验不通过：写入后被修改，或在没有链密钥的情况下被伪造',
    );
    expect(localizedProblem(texts[1]!, 'zh-CN')).toBe(
      '序号 7–9 的事件缺失（被删除），位于事件（序号 42，ID 1234）之前',
    );
  });

  it('keeps English for English callers, a tenant prefix, and unknown texts as they are', () => {
    const text = `${EVENT} does not link to the event before it (inserted or reordered)`;
    expect(localizedProblem(text, 'en')).toBe(text);
    expect(localizedProblem(`acme: ${text}`, 'zh-CN')).toBe(
      'acme：事件（序号 42，ID 1234）没有链接到它之前的事件（被插入或调换了顺序）',
    );
    expect(localizedProblem('something new went wrong', 'zh-CN')).toBe('something new went wrong');
    // A value is put in as it is, `$` patterns included.
    expect(
      localizedProblem(
        'events up to seq 5 were removed from the database, but the archive (s3://b/$&x) holds no range that covers them (deleted without archiving)',
        'zh-CN',
      ),
    ).toContain('（s3://b/$&x）');
  });

  it('localizes every problem of a verification: the summary, each tenant and each break', () => {
    const problem = `${EVENT} does not link to the event before it (inserted or reordered)`;
    const v = localizedVerification(
      {
        ok: false,
        checked: 3,
        problem: `acme: ${problem}`,
        tenants: [{ tenantId: 'acme', ok: false, problem, breaks: [{ problem, eventId: '1234', seq: 42 }] }],
      },
      'zh-CN',
    );
    expect(v.problem).toMatch(/^acme：事件（序号 42/);
    expect(v.tenants[0]!.problem).toMatch(/^事件（序号 42/);
    expect(v.tenants[0]!.breaks![0]).toMatchObject({
      eventId: '1234',
      seq: 42,
      problem: expect.stringMatching(/^事件/),
    });
  });
});
