// modtool desk: polls the ledger's stamp and redraws what the server renders;
// sends writes with the page's token; shows the library's answer as it is.
"use strict";
(function () {
  const meta = (n) => document.querySelector(`meta[name="${n}"]`);
  const token = meta("modtool-token").content;
  const game = document.body.dataset.game;
  if (!game) return;
  const base = `/g/${encodeURIComponent(game)}/`;
  let stamp = meta("modtool-stamp").content;
  let busy = false;

  async function post(path, body) {
    const r = await fetch(base + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Modtool-Token": token },
      body: JSON.stringify(body),
    });
    if (!r.ok) return { ok: false, written: false, text: "", notes: [], problems: [await r.text()] };
    return r.json();
  }

  function told(answer) {
    return [answer.text || "", ...(answer.notes || []), ...(answer.problems || [])].filter(Boolean).join("\n").trim();
  }

  // Redraw #live from the server whenever the ledger changed (by the page or by a command).
  async function refresh() {
    const r = await fetch(location.pathname + location.search, { cache: "no-store" });
    const doc = new DOMParser().parseFromString(await r.text(), "text/html");
    for (const id of ["live", "wide"]) {
      const fresh = doc.getElementById(id), here = document.getElementById(id);
      if (fresh && here) here.replaceWith(fresh);
    }
    stamp = doc.querySelector('meta[name="modtool-stamp"]').content;
    document.body.dataset.stamp = stamp;
    wireCopies();
    wireSends();
  }

  async function poll() {
    if (!busy) {
      try {
        const r = await fetch(base + "stamp", { cache: "no-store" });
        const now = (await r.json()).stamp;
        if (now !== stamp) { busy = true; await refresh(); }
        document.getElementById("live-state").classList.remove("lost");
      } catch (e) {
        document.getElementById("live-state").classList.add("lost");
      } finally { busy = false; }
    }
    setTimeout(poll, 1000);
  }
  document.body.dataset.stamp = stamp;
  setTimeout(poll, 1000);

  function show(answer) {
    const box = document.getElementById("result");
    if (!box) return;
    box.hidden = false;
    box.classList.toggle("refused", !answer.ok);
    document.getElementById("result-text").textContent = told(answer);
  }

  // Forms: one per write, chosen from the list.
  const choice = document.getElementById("form-choice");
  if (choice) {
    choice.addEventListener("change", () => {
      for (const f of document.querySelectorAll("form.write")) f.hidden = f.dataset.command !== choice.value;
    });
  }
  for (const form of document.querySelectorAll("form.write")) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const sent = {};
      for (const el of form.elements) {
        if (!el.name) continue;
        sent[el.name] = el.type === "checkbox" ? el.checked : el.value;
      }
      const answer = await post("write/" + form.dataset.command, sent);
      show(answer);
      if (answer.written) await refresh();
    });
  }

  // The preview's lists: new posts, edited posts, posts outside the day, one row a post
  // ("floor · author · time · first line"), built as text (player text is never markup).
  function showLists(data) {
    const d = document.getElementById("paste-lists").dataset;
    const floor = (r) => d.floor.replace("{floor}", () => String(r.floor));
    const span = (r) => d.span.replace("{day}", () => String(r.day))
      .replace("{start}", () => r.start || d.unknown).replace("{end}", () => r.end || d.unknown);
    const rows = {
      new: (r) => [floor(r), r.author, r.time, r.first_line],
      edited: (r) => [floor(r), r.author, r.time, r.first_line, r.recorded ? "" : d.kept],
      outside: (r) => [floor(r), r.author, r.time, span(r)],
    };
    for (const [key, parts] of Object.entries(rows)) {
      const section = document.getElementById("paste-" + key);
      const list = section.querySelector("ul");
      const found = (data && data[key]) || [];
      list.replaceChildren(...found.map((r) => {
        const li = document.createElement("li");
        li.textContent = parts(r).filter((x) => x !== "" && x !== null && x !== undefined).join(" · ");
        return li;
      }));
      section.querySelector(".count").textContent = found.length ? `(${found.length})` : "";
      section.hidden = found.length === 0;
    }
  }

  // Paste (or drop a file), preview, then import on confirmation.
  const paste = document.getElementById("paste-text");
  let previewed = null;
  if (paste) {
    paste.addEventListener("dragover", (ev) => ev.preventDefault());
    paste.addEventListener("drop", async (ev) => {
      ev.preventDefault();
      const file = ev.dataTransfer.files[0];
      if (file) paste.value = await file.text();
    });
    paste.addEventListener("paste", (ev) => {
      // A browser copy of a page: its HTML when there is some (the readers read the page), else its text.
      const html = ev.clipboardData && ev.clipboardData.getData("text/html");
      if (html) { ev.preventDefault(); paste.value = html; }
    });
    document.getElementById("paste-preview").addEventListener("click", async () => {
      const sent = { text: paste.value, thread: document.getElementById("paste-thread").value,
                     day: document.getElementById("paste-day").value };
      const answer = await post("preview", sent);
      const box = document.getElementById("paste-result");
      box.hidden = false;
      showLists(answer.data);
      document.getElementById("paste-said").textContent = told(answer);
      document.getElementById("paste-after").textContent = answer.after || "";
      document.getElementById("paste-import").hidden = !answer.ok;
      previewed = answer.ok ? { id: answer.id, thread: sent.thread, day: sent.day } : null;
    });
    document.getElementById("paste-import").addEventListener("click", async () => {
      if (!previewed) return;
      const answer = await post("import", previewed);
      show(answer);
      if (answer.written) {
        document.getElementById("paste-result").hidden = true;
        paste.value = "";
        previewed = null;
        await refresh();
      }
    });
  }

  // Notices whose sending is a fact (M42's witch and hunter): send = record the time, then the text
  // to copy. What was sent stays shown when the page redraws from the ledger it changed.
  const sentShown = {};
  function fillSend(form) {
    const shown = sentShown[form.dataset.kind];
    if (!shown) return;
    const said = form.querySelector("pre.said");
    said.hidden = !shown.said;
    said.textContent = shown.said;
    said.classList.toggle("refusal", !shown.ok);
    form.querySelector("div.sent-post").hidden = !shown.text;
    form.querySelector("pre.post-text").textContent = shown.text;
  }
  function wireSends() {
    for (const form of document.querySelectorAll("form.send")) {
      fillSend(form);
      if (form.dataset.wired) continue;
      form.dataset.wired = "1";
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const answer = await post("send", { kind: form.dataset.kind, told_at: form.elements.told_at.value,
                                            force: form.elements.force.checked });
        sentShown[form.dataset.kind] = { ok: answer.ok, text: answer.written ? answer.text : "",
                                         said: [...(answer.notes || []), ...(answer.problems || [])].join("\n") };
        for (const f of document.querySelectorAll("form.send")) if (f.dataset.kind === form.dataset.kind) fillSend(f);
        if (answer.written) await refresh();
      });
    }
  }
  wireSends();

  // Copy buttons: the post's text as rendered.
  function wireCopies() {
    for (const b of document.querySelectorAll("button.copy")) {
      if (b.dataset.wired) continue;
      b.dataset.wired = "1";
      b.addEventListener("click", async () => {
        const text = document.getElementById(b.dataset.for).textContent;
        try {
          await navigator.clipboard.writeText(text);
        } catch (e) {
          const area = document.createElement("textarea");
          area.value = text;
          document.body.appendChild(area);
          area.select();
          document.execCommand("copy");
          area.remove();
        }
        b.classList.add("copied");
        document.body.dataset.copied = b.dataset.for;
      });
    }
  }
  wireCopies();
})();
