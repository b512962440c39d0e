// The buttons under the rack. Each is enabled only when a legal move (or, for Okey
// 101's openings and new melds, which LegalMoves never lists, the laying part of the
// turn) allows it; the page never offers a move the server has not listed.

export interface Control {
  readonly id: string;
  readonly label: string;
  readonly enabled: boolean;
  readonly title?: string;
  readonly run: () => void;
}

export function renderControls(root: HTMLElement, groups: readonly (readonly Control[])[]): void {
  const bar = document.createElement("div");
  bar.className = "controls";
  for (const group of groups) {
    if (group.length === 0) continue;
    const box = document.createElement("div");
    box.className = "control-group";
    for (const control of group) {
      const button = document.createElement("button");
      button.type = "button";
      button.id = control.id;
      button.textContent = control.label;
      button.disabled = !control.enabled;
      if (control.title !== undefined) button.title = control.title;
      button.addEventListener("click", () => {
        if (!button.disabled) control.run();
      });
      box.append(button);
    }
    bar.append(box);
  }
  root.replaceChildren(bar);
}
