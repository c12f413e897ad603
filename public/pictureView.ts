/**
 * A picture in the page: the wide layout where there is room, the upright one on a narrow
 * screen (drawn anew when the width crosses the limit), and the drawn SVG kept for its download.
 */
import { svgOf, type Picture } from "../src/site/picture.js";
import { narrowSvgOf } from "../src/site/pictureNarrow.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

const NARROW = matchMedia("(max-width: 600px)");

export interface PictureElement extends HTMLElement {
  /** The SVG as shown now. */
  svg?: string;
}

export function pictureElement(picture: Picture, id = "picture", caption = t.pictureCaption): PictureElement {
  const figure: PictureElement = el("figure", "", { id });
  const draw = () => {
    if (!figure.isConnected && figure.svg !== undefined) return NARROW.removeEventListener("change", draw);
    figure.svg = NARROW.matches ? narrowSvgOf(picture, Math.min(420, Math.max(300, Math.floor(innerWidth - 24)))) : svgOf(picture);
    figure.innerHTML = figure.svg;
    figure.querySelector("svg")?.setAttribute("aria-label", picture.title);
    figure.append(el("figcaption", caption));
  };
  draw();
  NARROW.addEventListener("change", draw);
  return figure;
}
