/** A phone number in a help text: 3+ digits, maybe with a leading + and dashes (12356, 120, 0571-88886666). */
const PHONE = /(\+?\d[\d-]+\d)/g;

/**
 * A help text whose phone numbers are tap-to-call links: a person in distress on a phone calls
 * the hotline with one tap instead of copying digits.
 */
export function CallableText({ text }: { text: string }) {
  return (
    <>
      {text.split(PHONE).map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={`tel:${part.replace(/[^\d+]/g, '')}`} className="r-tel">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
