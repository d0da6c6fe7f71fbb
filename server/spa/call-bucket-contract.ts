import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_LIMIT, type CallBucket, type Observation, type TakeRequest } from "./call-governor.server";

/**
 * What every adapter of the call bucket promises (decision 036), run against each of them: memory in
 * call-governor.test.ts, Redis against a real redis-server in redis-call-governor.test.ts. On a clock
 * the test moves: `open(clock)` gives an empty bucket, as a first start does, that reads it.
 */
export function describeCallBucketContract(name: string, open: (clock: () => number) => Promise<CallBucket>): void {
  describe(`${name}: call bucket contract`, () => {
    let now: number;
    let bucket: CallBucket;
    beforeEach(async () => {
      now = Date.UTC(2026, 4, 5, 9);
      bucket = await open(() => now);
    });
    afterEach(async () => {
      await bucket.close();
    });

    const held: TakeRequest = { priority: "held", readReserve: 6 };
    const browse: TakeRequest = { priority: "browse", readReserve: 6 };
    const newBooking = (booking?: string): TakeRequest => ({ priority: "booking", booking, readReserve: 6 });
    const answer = (observation: Partial<Observation>): Observation => ({
      shape: null,
      remaining: null,
      limited: false,
      retryAfterSeconds: null,
      resetSeconds: null,
      ...observation,
    });
    async function takeAll(request: TakeRequest, most = 200): Promise<number> {
      let taken = 0;
      while (taken < most && (await bucket.take(request)).granted) taken++;
      return taken;
    }
    const tokens = async () => Math.round((await bucket.state()).tokens * 1000) / 1000;

    describe("the bucket", () => {
      it("starts as Zenoti's standard plan, full: 60 calls a minute, 60 at most", async () => {
        expect(await bucket.state()).toEqual({
          shape: { limit: 60, windowSeconds: 60, burst: 60 },
          tokens: 60,
          reserved: 0,
        });
        expect(await takeAll(held)).toBe(60);
      });

      it("refills continuously at limit/window, and says how long until the next token", async () => {
        await takeAll(held);
        expect(await bucket.take(held)).toEqual({ granted: false, waitMs: 1_000 });
        now += 400;
        expect(await bucket.take(held)).toEqual({ granted: false, waitMs: 600 });
        now += 600;
        expect(await bucket.take(held)).toEqual({ granted: true });
        expect(await bucket.take(held)).toMatchObject({ granted: false });
        now += 10_000;
        expect(await takeAll(held)).toBe(10);
      });

      it("never keeps more than the burst, however long it was left", async () => {
        await takeAll(held);
        now += 3_600_000;
        expect(await tokens()).toBe(60);
      });

      it("takes the shape an answer names, and refills at its rate", async () => {
        await bucket.observe(answer({ shape: { limit: 120, windowSeconds: 60, burst: 30 } }));
        expect(await bucket.state()).toMatchObject({ shape: { limit: 120, windowSeconds: 60, burst: 30 }, tokens: 30 });
        expect(await takeAll(held)).toBe(30);
        now += 1_000;
        expect(await takeAll(held)).toBe(2);
      });
    });

    describe("kept in step with the answers", () => {
      it("never holds more than RateLimit-Remaining says, and never more because an answer says so", async () => {
        await bucket.observe(answer({ shape: { limit: 60, windowSeconds: 60, burst: 60 }, remaining: 10 }));
        expect(await tokens()).toBe(10);
        // An answer sent before calls still in flight may say more than is left here: it is not believed.
        await bucket.observe(answer({ remaining: 50 }));
        expect(await tokens()).toBe(10);
        now += 5_000;
        expect(await tokens()).toBe(15);
      });

      it("on a 429 waits as Retry-After says", async () => {
        await bucket.observe(answer({ limited: true, remaining: 0, retryAfterSeconds: 3, resetSeconds: 60 }));
        expect(await tokens()).toBe(-2);
        expect(await bucket.take(held)).toEqual({ granted: false, waitMs: 3_000 });
        now += 3_000;
        expect(await bucket.take(held)).toEqual({ granted: true });
      });

      it("on a 429 without Retry-After reads RateLimit-Reset as the time until the bucket is full", async () => {
        await bucket.observe(answer({ limited: true, remaining: 0, resetSeconds: 58 }));
        expect(await tokens()).toBe(0);
        await bucket.observe(answer({ limited: true }));
        expect(await bucket.take(held)).toEqual({ granted: false, waitMs: 1_000 });
      });

      it("lets every call through while no answer has named a limit, and never again once one has", async () => {
        await bucket.observe(answer({ shape: NO_LIMIT }));
        expect(await takeAll(browse)).toBe(200);
        expect(await bucket.admit("b1", 11, 60_000)).toEqual({ admitted: true });
        await bucket.observe(answer({ shape: { limit: 60, windowSeconds: 60, burst: 60 }, remaining: 20 }));
        expect(await tokens()).toBe(20);
        // One endpoint answering without the headers does not switch the organisation's limit off.
        await bucket.observe(answer({ shape: NO_LIMIT }));
        expect(await bucket.state()).toMatchObject({ shape: { limit: 60 }, tokens: 20 });
      });
    });

    describe("priorities", () => {
      it("keeps what held bookings need from new bookings, and a further reserve from reads", async () => {
        await bucket.observe(answer({ remaining: 20 }));
        await bucket.commit("held-1", 6, 600_000);
        // Reads stop where 6 (held) + 6 (read reserve) are left.
        expect(await takeAll(browse)).toBe(8);
        expect(await bucket.take(browse)).toEqual({ granted: false, waitMs: 1_000 });
        // A write of nobody's booking may go down to what the held booking needs.
        expect(await takeAll(newBooking())).toBe(6);
        // The held booking may take the last one, and spends what is kept for it as it goes.
        expect(await takeAll({ ...held, booking: "held-1" })).toBe(6);
        expect((await bucket.state()).reserved).toBe(0);
      });

      it("lets a new booking in only while the bucket covers it besides the others, then it spends its own", async () => {
        await bucket.observe(answer({ remaining: 25 }));
        expect(await bucket.admit("a", 11, 120_000)).toEqual({ admitted: true });
        expect(await bucket.admit("b", 11, 120_000)).toEqual({ admitted: true });
        expect(await bucket.admit("c", 11, 120_000)).toEqual({ admitted: false, waitMs: 8_000 });
        // Let in again as it is, while its turn lasts.
        expect(await bucket.admit("a", 11, 120_000)).toEqual({ admitted: true });
        expect((await bucket.state()).reserved).toBe(22);
        // Nobody's write finds only what the two bookings leave; "a" spends its own eleven.
        expect(await takeAll(newBooking())).toBe(3);
        expect(await takeAll(newBooking("a"))).toBe(11);
        expect(await bucket.take(newBooking("a"))).toMatchObject({ granted: false });
        expect((await bucket.state()).reserved).toBe(11);
      });

      it("drops a reservation when it runs out, or when the booking ends", async () => {
        await bucket.admit("a", 11, 120_000);
        await bucket.commit("b", 6, 600_000);
        expect((await bucket.state()).reserved).toBe(17);
        now += 120_000;
        expect((await bucket.state()).reserved).toBe(6);
        await bucket.release("b");
        expect((await bucket.state()).reserved).toBe(0);
      });

      it("a hold replaces the booking's admission with what it still needs", async () => {
        await bucket.admit("a", 11, 120_000);
        await takeAll(newBooking("a"), 5);
        expect((await bucket.state()).reserved).toBe(6);
        await bucket.commit("a", 6, 600_000);
        now += 300_000;
        expect((await bucket.state()).reserved).toBe(6);
      });
    });
  });
}
