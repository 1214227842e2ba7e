// The playground: sends an endpoint's documented sandbox test values with the console session
// (the cookie authenticates; unsafe methods carry the session's X-CSRF-Token).
"use strict";
(function () {
  const root = document.getElementById("playground");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const endpointSelect = document.getElementById("pg-endpoint");
  const caseSelect = document.getElementById("pg-case");
  const body = document.getElementById("pg-body");
  const status = document.getElementById("pg-status");
  const output = document.getElementById("pg-response");
  let byEndpoint = new Map();

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  function showCase() {
    const entry = byEndpoint.get(endpointSelect.value)[Number(caseSelect.value)];
    const input = entry.body || entry.query || entry.multipart || {};
    body.value = JSON.stringify(input, null, 2);
    body.disabled = Boolean(entry.multipart);
  }

  function showCases() {
    caseSelect.replaceChildren();
    byEndpoint.get(endpointSelect.value).forEach((entry, n) => option(caseSelect, String(n), entry.description));
    showCase();
  }

  function decode(b64) {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  }

  async function send() {
    const entry = byEndpoint.get(endpointSelect.value)[Number(caseSelect.value)];
    let url = entry.path;
    const init = { method: entry.method, headers: { "X-CSRF-Token": csrf } };
    let input;
    try {
      input = body.value.trim() ? JSON.parse(body.value) : {};
    } catch (err) {
      status.textContent = "The body is not JSON: " + err.message;
      return;
    }
    if (entry.multipart) {
      const form = new FormData();
      for (const [k, v] of Object.entries(entry.multipart.fields)) form.append(k, v);
      for (const [k, f] of Object.entries(entry.multipart.files)) {
        form.append(k, new Blob([decode(f.content_base64)], { type: f.content_type }), f.filename);
      }
      init.body = form;
    } else if (entry.method === "GET" || entry.method === "DELETE") {
      const query = new URLSearchParams(input);
      if ([...query].length) url += "?" + query.toString();
    } else {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(input);
    }
    status.textContent = "Sending " + entry.method + " " + url + " ...";
    const response = await fetch(url, init);
    const text = await response.text();
    status.textContent = entry.method + " " + url + " → " + response.status +
      " (expected " + entry.expect.http_status + ")";
    try {
      output.textContent = JSON.stringify(JSON.parse(text), null, 2);
    } catch (err) {
      output.textContent = text;
    }
  }

  async function load() {
    const response = await fetch("/v3/sandbox/test-values");
    if (!response.ok) {
      status.textContent = "Test values are served in the sandbox only: switch to sandbox.";
      return;
    }
    const entries = (await response.json()).data;
    byEndpoint = new Map();
    for (const entry of entries) {
      const key = entry.method + " " + entry.path;
      if (!byEndpoint.has(key)) byEndpoint.set(key, []);
      byEndpoint.get(key).push(entry);
    }
    for (const key of byEndpoint.keys()) option(endpointSelect, key, key);
    showCases();
    root.dataset.ready = "yes";
  }

  endpointSelect.addEventListener("change", showCases);
  caseSelect.addEventListener("change", showCase);
  document.getElementById("pg-send").addEventListener("click", () => { send(); });
  load();
})();
