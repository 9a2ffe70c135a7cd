// Cookie Jar's web page: the live table and the replay stepper. No inline script anywhere
// (the Content-Security-Policy forbids it); the server escapes every name it sends.
"use strict";

// The match ended while watched: say so as a page loaded then would, the replay linked
// (a finished match has one; a cancelled one does not), and no longer that it follows.
function ended(turn, status) {
  // The server's sentences (data attributes, in the page's language, names escaped).
  turn.innerHTML = status === "finished" ? turn.dataset.overReplay : turn.dataset.over;
  const follows = document.getElementById("follows");
  if (follows) {
    follows.remove();
  }
}

function followTable(body) {
  const picture = document.getElementById("picture");
  const link = document.getElementById("picture-link");
  const text = document.getElementById("table-text");
  const turn = document.getElementById("turn");
  if (turn.dataset.status !== "active") {
    return; // loaded over: nothing will change
  }
  // A browser opens at most six connections to one site over HTTP/1.1, and a stream holds
  // one: a page left for another (kept in the back/forward cache) lets its stream go, and
  // opens one again if it is shown again (the first event brings it up to date).
  let source = null;
  const open = () => {
    source = new EventSource(body.dataset.live);
    source.onmessage = heard;
  };
  window.addEventListener("pagehide", () => source && source.close());
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && turn.dataset.status === "active") {
      open();
    }
  });
  const heard = (message) => {
    const now = JSON.parse(message.data);
    if (String(now.version) === body.dataset.version && turn.dataset.status === now.status) {
      return;
    }
    body.dataset.version = String(now.version);
    text.innerHTML = now.html; // rendered and escaped by the server's template
    if (picture) {
      picture.src = body.dataset.picture + "?v=" + now.version;
      link.href = picture.src; // the full-size picture is this version's too
    }
    turn.dataset.status = now.status;
    if (now.status === "active") {
      if (now.waiting) {
        turn.innerHTML = turn.dataset.waitingWords; // the server's sentence, "{names}" in it
      } else {
        turn.replaceChildren(document.createElement("strong"));
        turn.firstChild.id = "waiting";
      }
      document.getElementById("waiting").textContent = now.waiting; // names as text
    } else {
      ended(turn, now.status);
      source.close();
    }
  };
  open();
}

function stepReplay() {
  const slider = document.getElementById("step");
  const label = document.getElementById("step-label");
  const steps = document.querySelectorAll("article.step");
  const back = document.getElementById("back");
  const forward = document.getElementById("forward");
  const last = steps.length - 1;
  const show = (n) => {
    const step = Math.max(0, Math.min(last, n));
    slider.value = String(step);
    steps.forEach((article, i) => {
      article.hidden = i !== step;
      const img = article.querySelector("img[data-src]");
      if (i === step && img) {
        img.src = img.dataset.src;
        img.removeAttribute("data-src");
      }
    });
    // The sentence comes in the page's language, its step left as "{step}".
    label.textContent = label.dataset.words.replace("{step}", step);
    back.disabled = step === 0; // nothing before the deal, nothing after the last move
    forward.disabled = step === last;
    document.body.dataset.step = String(step);
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  back.addEventListener("click", () => show(Number(slider.value) - 1));
  forward.addEventListener("click", () => show(Number(slider.value) + 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") {
      show(Number(slider.value) - 1);
      event.preventDefault();
    } else if (event.key === "ArrowRight") {
      show(Number(slider.value) + 1);
      event.preventDefault();
    }
  });
  show(0);
}

function refreshEvent(body) {
  // A running event's page looks for news every few seconds and swaps in what changed
  // (a result, a new round). The server keeps the page rendered for every viewer.
  const main = document.querySelector("main");
  let timer = 0;
  const look = async () => {
    if (document.hidden) {
      return;
    }
    try {
      const answer = await fetch(window.location.href, { cache: "no-store" });
      if (!answer.ok) {
        return;
      }
      const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
      const freshMain = fresh.querySelector("main");
      if (freshMain && freshMain.innerHTML !== main.innerHTML) {
        main.innerHTML = freshMain.innerHTML; // rendered and escaped by the server's template
      }
      if (!fresh.body.dataset.refresh) {
        clearInterval(timer); // finished or cancelled: nothing more will come
        delete body.dataset.refresh;
      }
    } catch (error) {
      // Offline for a moment: the next look tries again.
    }
  };
  timer = setInterval(look, Number(body.dataset.refresh));
}

document.addEventListener("DOMContentLoaded", () => {
  const body = document.body;
  if (body.dataset.live) {
    followTable(body);
  }
  if (body.dataset.replay) {
    stepReplay();
  }
  if (body.dataset.refresh) {
    refreshEvent(body);
  }
});
