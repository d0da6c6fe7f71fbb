import { HOME_CLINIC } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import { uniqueEmail, uniquePhone } from "./helpers";

test("the account calls work as JSON with a bearer session token", ONCE, async ({ request }) => {
  const email = uniqueEmail("api");
  const centerId = HOME_CLINIC.centerId;
  const registration = {
    firstName: "Api",
    lastName: "User",
    email,
    phone: uniquePhone(),
    centerId,
    address: "1 Main St",
    city: "Austin",
    zip: "78701",
    password: "Glow!Skin2026",
    ageConfirmed: true,
    marketingEmail: false,
  };
  const created = await request.post("/api/users", { data: registration });
  expect(created.status()).toBe(201);
  const { sessionToken } = await created.json();
  expect(sessionToken).toBeTruthy();

  const me = await request.get("/api/users/me", { headers: { authorization: `Bearer ${sessionToken}` } });
  expect(await me.json()).toMatchObject({ user: { email } });

  expect((await request.post("/api/users", { data: registration })).status()).toBe(409);
  expect((await request.post("/api/users/login", { data: { email, password: "wrong" } })).status()).toBe(401);
  const login = await request.post("/api/users/login", { data: { email, password: "Glow!Skin2026" } });
  expect(login.status()).toBe(200);
  const second = (await login.json()).sessionToken;

  expect((await request.delete("/api/users/logout", { headers: { authorization: `Bearer ${second}` } })).status()).toBe(
    204,
  );
  expect((await request.get("/api/users/me", { headers: { authorization: `Bearer ${second}` } })).status()).toBe(401);
  expect((await request.get(`/api/users/forgot-password?email=${encodeURIComponent(email)}`)).status()).toBe(202);
  expect(
    (await request.post("/api/users/reset-password", { data: { email, code: "12", password: "x" } })).status(),
  ).toBe(400);
});

test("bad requests to the account calls get a 4xx, never a 500", ONCE, async ({ request }) => {
  expect(
    (await request.post("/api/users/login", { data: "not json", headers: { "content-type": "text/plain" } })).status(),
  ).toBe(415);
  expect(
    (
      await request.post("/api/users/login", { data: "[1,2]", headers: { "content-type": "application/json" } })
    ).status(),
  ).toBe(400);
  expect(
    (
      await request.post("/api/users/login", {
        data: `{"email":"${"a".repeat(20_000)}"}`,
        headers: { "content-type": "application/json" },
      })
    ).status(),
  ).toBe(413);
  expect((await request.get("/api/users/nothing-here")).status()).toBe(404);
  // A form with a repeated field, or a JSON body sent to a page form.
  expect(
    (
      await request.post("/login", {
        form: { email: "a@example.com", password: "x" },
        headers: { "content-type": "application/json" },
      })
    ).status(),
  ).toBeLessThan(500);
  const repeated = await request.post("/login", {
    data: "email=a%40example.com&email=b%40example.com&password=x",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(repeated.status()).toBe(400);
  const huge = await request.post("/register", { form: { firstName: "x".repeat(9000) } });
  expect(huge.status()).toBe(400);
});
