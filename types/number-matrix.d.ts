// Types of `attention-explorer/number-matrix` (web/components/number-matrix.mjs): a matrix of
// attention numbers as an HTML table (rows = queries, columns = keys).

export interface MatrixData {
  /** query labels (n) */
  rows: string[];
  /** key labels (m) */
  cols: string[];
  /** row-major n × m; −Infinity draws a masked cell */
  values: ArrayLike<number>;
  /** 'weights': colour 0…1; 'scores': from the smallest to the largest finite value */
  kind?: 'weights' | 'scores';
  caption?: string;
  highlightRow?: number;
  rowOffset?: number;
}

/** Draws the table into `host` (or updates the one there) and returns it. */
export declare function drawMatrix(host: HTMLElement, data: MatrixData): HTMLTableElement;
