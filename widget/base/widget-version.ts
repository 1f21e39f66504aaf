/** The widget's version, compared when a second copy of the bundle tries to define the same tags. */
export const widgetVersion = '0.1.0';
